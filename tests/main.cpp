#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

// LLVM's OpenMP runtime (the Clang sanitizer build's) keeps the descriptor of each thread that entered a
// parallel region from outside OpenMP (the tests' std::threads) to the process's end: LeakSanitizer would
// report them as leaks of ours.
extern "C" const char* __lsan_default_suppressions() { return "leak:libomp.so\n"; }
