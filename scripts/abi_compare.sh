#!/usr/bin/env bash
# abi_compare.sh BUILD_A BUILD_B: the two builds' shared libraries (say the CPU-only and the CUDA build)
# define the same strong exported symbols, so a program linked against one install runs against the
# other. Weak ones (inline functions emitted where they are used) are left out: which of them a build
# emits follows its optimisation, and every program carries its own copies. The test command compares
# its Clang sanitizer build with the GCC release build, so names are compared demangled (GCC defines a
# constructor's complete and base forms, Clang one) and typeinfo and vtables, strong or weak as the
# compiler and AddressSanitizer emit them, are left out too.
set -euo pipefail
status=0
for library in xparray xparray_utils xparray_dist xparray_fft; do
  a=$1/lib/lib$library.so b=$2/lib/lib$library.so
  [ -f "$a" ] && [ -f "$b" ] || continue
  strong() {
    nm -D --defined-only "$1" | awk '$2 ~ /^[TDBR]$/ { print $3 }' | c++filt |
      grep -vE '^(typeinfo|typeinfo name|vtable|VTT|construction vtable) for ' | sort -u
  }
  if ! difference=$(diff <(strong "$a") <(strong "$b")); then
    echo "abi_compare: lib$library.so differs between $1 and $2 (< only in the first, > only in the second):"
    grep '^[<>]' <<<"$difference"
    status=1
  else
    echo "abi_compare: lib$library.so: the same $(strong "$a" | wc -l) strong symbols in $1 and $2"
  fi
done
exit "$status"
