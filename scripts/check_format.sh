#!/usr/bin/env bash
# Fails, naming the files, when a tracked C++ file is not as clang-format (.clang-format's version,
# from .venv: scripts/setup.sh) writes it. With --fix, rewrites them instead.
set -euo pipefail
cd "$(dirname "$0")/.."
format=.venv/bin/clang-format
wanted=19.1.7
if ! "$format" --version 2>/dev/null | grep -q "version $wanted"; then
  echo "check_format: $format $wanted is missing (scripts/setup.sh installs it)" >&2
  exit 1
fi
# tests/golden holds generated sources, compared byte for byte.
mapfile -t files < <(git ls-files '*.hpp' '*.cpp' '*.cu' '*.cuh' '*.inc' '*.h' ':!tests/golden/*')
if [ "${1:-}" = --fix ]; then
  "$format" -i "${files[@]}"
  exit 0
fi
if ! "$format" --dry-run --Werror "${files[@]}" 2>/tmp/check_format.$$; then
  grep -o '^[^:]*:[0-9]*:[0-9]*: error' /tmp/check_format.$$ | cut -d: -f1 | sort -u | sed 's/^/check_format: not formatted: /' >&2
  echo "check_format: run scripts/check_format.sh --fix" >&2
  rm -f /tmp/check_format.$$
  exit 1
fi
rm -f /tmp/check_format.$$
echo "check_format: ${#files[@]} files as clang-format $wanted writes them"
