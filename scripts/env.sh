# Sourced by the scripts: puts nvcc on PATH when the toolkit sits in its usual place.
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
# The preset that builds the CUDA backend whenever the toolkit is here, and insists on it.
if command -v nvcc >/dev/null 2>&1; then XP_PRESET=cuda; else XP_PRESET=default; fi
