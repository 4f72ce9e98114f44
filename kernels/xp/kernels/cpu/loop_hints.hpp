#pragma once
// XP_INDEPENDENT_ITERATIONS, before a loop: its iterations do not depend on each other, so GCC
// vectorises it without proving that the pointers do not alias. Clang's counterpart
// (vectorize(assume_safety)) warns wherever a loop still does not vectorise (under the sanitizers,
// say), and Clang checks aliasing at run time anyway: nothing there. An unknown pragma would be a
// warning in the user's build.
#if defined(__GNUC__) && !defined(__clang__)
#define XP_INDEPENDENT_ITERATIONS _Pragma("GCC ivdep")
#else
#define XP_INDEPENDENT_ITERATIONS
#endif
