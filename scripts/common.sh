# Sourced by the scripts: installs what is missing, finds the CUDA toolkit, and defines `build`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
# With the toolkit here, the preset that insists on the CUDA backend; else the CPU-only default.
if command -v nvcc >/dev/null 2>&1; then XP_PRESET=cuda; else XP_PRESET=default; fi

# forget_headerless_objects DIR: an object for which ninja recorded no headers (its depfile lost, as
# when a compile is cut short) would never be rebuilt when a header changes; remove those, so that the
# next build compiles them again instead of linking stale code.
forget_headerless_objects() {
  local dir=$1
  [ -f "$dir/.ninja_deps" ] || return 0
  ninja -C "$dir" -t deps | awk '/: #deps 0,/ { sub(/:$/, "", $1); print $1 }' | (cd "$dir" && xargs -r rm -f --)
}

# build PRESET [TARGET...]: configure and build.
build() {
  local preset=$1 log
  shift
  forget_headerless_objects "build/$preset"
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
