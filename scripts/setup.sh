#!/usr/bin/env bash
# Installs the Debian packages xparray builds with, and those named as arguments (a script's own extras),
# and does nothing when they are all there.
# The CUDA toolkit is not a Debian package here: when nvcc is found (on PATH or in /usr/local/cuda),
# the CUDA backend is built; otherwise the library is CPU-only.
set -euo pipefail

# libopenblas-openmp-dev: OpenBLAS built on OpenMP, sharing the threads of the library's loops (lib/CMakeLists.txt).
# zlib1g-dev: .npz archives (deflate, CRC-32).
# libopenmpi-dev and openmpi-bin: xp::dist and its tests under mpirun. libdlpack-dev: <xp/dlpack.hpp>.
# libfftw3-dev: xp::fft on CPUs (FFTW3, GPL-2+: a library of its own, lib/CMakeLists.txt).
# doxygen: the API reference (scripts/docs.sh). clang, libomp-dev and libclang-rt-dev: the tsan and fuzz
# presets (ThreadSanitizer with LLVM's OpenMP and its Archer tool; libFuzzer).
packages=(cmake ninja-build g++ doctest-dev ccache libeigen3-dev libssl-dev libcurl4-openssl-dev libopenblas-openmp-dev
          zlib1g-dev libopenmpi-dev openmpi-bin libdlpack-dev libfftw3-dev doxygen python3-venv clang libomp-dev libclang-rt-dev "$@")

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The Python the tests use (the NumPy differential test's generator): .venv, seeing the system's
# packages, with NumPy from PyPI when the system has none.
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python3 ]; then
  echo "setup: creating .venv"
  python3 -m venv --system-site-packages .venv
fi
if ! .venv/bin/python3 -c "import numpy" 2>/dev/null; then
  echo "setup: installing numpy into .venv"
  .venv/bin/python3 -m pip install --quiet numpy
fi
# The formatter the test command checks the C++ files with (scripts/check_format.sh), one version for all.
# bfloat16 for the differential test's NumPy (NumPy has none): ml_dtypes, whose rules the README follows.
if ! .venv/bin/python3 -c "import ml_dtypes" 2>/dev/null; then
  echo "setup: installing ml_dtypes into .venv"
  .venv/bin/python3 -m pip install --quiet ml_dtypes==0.6.0
fi
if ! .venv/bin/clang-format --version 2>/dev/null | grep -q "version 19.1.7"; then
  echo "setup: installing clang-format 19.1.7 into .venv"
  .venv/bin/python3 -m pip install --quiet clang-format==19.1.7
fi
# The training example's data set: scikit-learn's digits, converted once into .data/.
if ! .venv/bin/python3 -c "import sklearn" 2>/dev/null; then
  echo "setup: installing scikit-learn into .venv"
  .venv/bin/python3 -m pip install --quiet scikit-learn
fi
if [ ! -f .data/digits.params ]; then
  mkdir -p .data
  .venv/bin/python3 scripts/convert_digits.py .data/digits.params
fi
