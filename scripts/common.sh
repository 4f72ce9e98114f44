# Sourced by the scripts: installs what is missing, finds the CUDA toolkit, and defines `build`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
# With the toolkit here, the preset that insists on the CUDA backend; else the CPU-only default.
if command -v nvcc >/dev/null 2>&1; then XP_PRESET=cuda; else XP_PRESET=default; fi

# build PRESET [TARGET...]: configure and build.
build() {
  local preset=$1 log
  shift
  log=$(mktemp)
  if ! cmake --preset "$preset" >"$log" 2>&1; then
    cat "$log"
    rm -f "$log"
    return 1
  fi
  grep -E "xparray:|CUDA compiler identification" "$log" || true
  rm -f "$log"
  cmake --build --preset "$preset" ${1:+--target "$@"}
}
