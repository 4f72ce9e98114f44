#!/usr/bin/env bash
# Runs here (Debian, with apt and the CUDA toolkit): makes .gpu-kit/ (ignored by git), all that
# scripts/gpu.sh needs on a GPU machine besides the checkout, so that nothing is built there:
# - build.tar.xz: the CUDA build's libraries and the programs gpu.sh runs (preset cuda, sm_80 and sm_90,
#   built here; paths relative to the repository root, found through $ORIGIN at run time);
# - debs/ and MANIFEST: the Debian packages they need at run time (OpenBLAS, OpenMPI with PMIx, libcurl,
#   openssl, FFTW3) with what those need, downloaded with `apt-get download` and never installed here;
# - BUILT: the commit, the architectures and the sizes.
# Fails when the kit and the checkout together would pass the 64 MiB a GPU run may carry.
set -euo pipefail
source "$(dirname "$0")/common.sh"

kit=.gpu-kit
limit_mib=64  # the kit and the tracked files together
[ "$XP_PRESET" = cuda ] || { echo "gpu-kit: no nvcc here: the kit needs the CUDA build" >&2; exit 1; }
# What gpu.sh runs, and the libraries they load from the build.
programs=(tests/xp_tests tests/xp_user_module_tests tests/xp_dist_tests tests/xp_differential tests/libxp_dlpack_exchange.so bench/gpu_bench)
targets=(xp_tests xp_user_module_tests xp_dist_tests xp_differential xp_dlpack_exchange gpu_bench)

started=$SECONDS
cmake --preset cuda -UCMAKE_CUDA_ARCHITECTURES >/dev/null  # the project's default: sm_80 and sm_90
forget_headerless_objects build/cuda
cmake --build --preset cuda --target "${targets[@]}"
echo "gpu-kit: built ${targets[*]} in $((SECONDS - started)) s"

# --- The build ----------------------------------------------------------------------------------------
mkdir -p "$kit"
files=()
for program in "${programs[@]}"; do files+=("build/cuda/$program"); done
while IFS= read -r -d '' library; do files+=("$library"); done < <(find build/cuda/lib -maxdepth 1 -name 'lib*.so*' -print0)
started=$SECONDS
# xp_tests, xp_dist_tests and libxparray.so each hold the same 68 MB of device code: a dictionary that spans
# the whole tarball finds the later copies (14 MB in 30 s, one thread; xz -6 gave 29 MB in 139 s on two).
tar -cf - "${files[@]}" | xz -T1 --lzma2=preset=2,dict=256MiB >"$kit/build.tar.xz.tmp"
mv "$kit/build.tar.xz.tmp" "$kit/build.tar.xz"
echo "gpu-kit: packed ${#files[@]} files ($(du -cb "${files[@]}" | tail -1 | cut -f1) bytes) into" \
  "$kit/build.tar.xz ($(stat -c %s "$kit/build.tar.xz") bytes) in $((SECONDS - started)) s"

# --- The Debian packages they need at run time ----------------------------------------------------------
# OpenBLAS's OpenMP build (the library's BLAS), libcurl (xp::utils), the openssl command (the HTTPS
# download tests make a certificate with it), OpenMPI's libraries and mpirun (xp::dist), each with what it
# needs at run time; FFTW3's double and single precision libraries (xp::fft).
wanted=(libopenblas0-openmp libcurl4 openssl libopenmpi3 openmpi-bin libfftw3-double3 libfftw3-single3)
# Every machine that runs nvcc has these (the C library, GCC's runtime), and a copy from here must
# never stand in for them; the package system's own tools and the logins' (dpkg, passwd, PAM, ssh:
# mpirun starts local processes without ssh) are never run; compilers and headers are not needed.
host_provided='^(libc6|libgcc-s1|libstdc\+\+6|gcc-[0-9]+-base|pkg-config|pkgconf|pkgconf-bin|libpkgconf[0-9]+'
host_provided+='|dpkg|tar|passwd|adduser|debconf|cdebconf|libdebian-installer4|install-info|openssh-client'
host_provided+='|libpam.*|libsemanage.*|libsepol2|libaudit.*|readline-common|libnewt0.52|libslang2|libtextwrap1'
host_provided+='|gfortran.*|gcc.*|cpp.*|g\+\+.*|binutils.*|.*-dev|perl.*|libperl.*)$'
# hwloc's plugins (XML topologies, PCI, X11 and NV-CONTROL, OpenCL) and what only they need: hwloc loads
# them when it finds them and works without; Debian's libopenmpi3 and libpmix2 depend on them as packages,
# not as libraries (no program or library here links one). They brought ICU, 11 MiB of the kit's 64.
optional='^(libhwloc-plugins|libxml2|libicu72|libx11-6|libx11-data|libxau6|libxcb1|libxdmcp6|libxext6'
optional+='|libxnvctrl0|libpciaccess0|ocl-icd-libopencl1)$'

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ! apt-cache show "${wanted[0]}" >/dev/null 2>&1; then
  $sudo apt-get update -qq
fi
mapfile -t packages < <(
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
    --no-enhances "${wanted[@]}" | grep -v '^ ' | grep -v '^<' | grep -Ev "$host_provided" | grep -Ev "$optional" |
    sort -u)

mkdir -p "$kit/debs"
# apt's download sandbox user cannot write into a working tree owned by root.
apt_get=(apt-get)
[ "$(id -u)" -ne 0 ] || apt_get+=(-o APT::Sandbox::User=root)
# One line per package: URI, file name, size, checksum (the candidate versions apt would install). Asked
# in an empty folder: apt leaves out the files a folder already holds.
empty=$(mktemp -d)
mapfile -t uris < <(cd "$empty" && "${apt_get[@]}" download --print-uris "${packages[@]}")
rmdir "$empty"
declare -A keep=()
missing=()
for line in "${uris[@]}"; do
  read -r _ file _ checksum <<<"$line"
  keep[$file]=1
  if ! echo "${checksum#SHA256:}  $kit/debs/$file" | sha256sum --check --status 2>/dev/null; then
    rm -f "$kit/debs/$file"
    missing+=("${file%%_*}")
  fi
done
if ((${#missing[@]})); then
  echo "gpu-kit: downloading ${missing[*]}"
  (cd "$kit/debs" && "${apt_get[@]}" download -qq "${missing[@]}")
fi
# Versions apt no longer offers, and packages no longer needed, go.
for deb in "$kit/debs"/*.deb; do
  name=$(basename "$deb")
  [ -n "${keep[$name]:-}" ] || { echo "gpu-kit: removing $name"; rm -f "$deb"; }
done
printf '%s\n' "${!keep[@]}" | sort >"$kit/MANIFEST"

# --- What travels --------------------------------------------------------------------------------------
kit_bytes=$(du -cb "$kit"/build.tar.xz "$kit"/debs/*.deb | tail -1 | cut -f1)
tree_bytes=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | awk '$2 == "total" { n += $1 } END { print n }')
{
  echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "sm_80 and sm_90 from compute_80, preset cuda, $(nvcc --version | grep -o 'release [0-9.]*'), $(c++ --version | head -1)"
  echo "source $PWD"
  echo "kit $kit_bytes bytes: build.tar.xz $(stat -c %s "$kit/build.tar.xz"), ${#keep[@]} packages $((kit_bytes - $(stat -c %s "$kit/build.tar.xz")))"
  echo "tracked files $tree_bytes bytes"
} >"$kit/BUILT"
cat "$kit/BUILT"
if ((kit_bytes + tree_bytes > limit_mib * 1048576)); then
  echo "gpu-kit: the kit and the tracked files come to $(((kit_bytes + tree_bytes) / 1048576)) MiB, over $limit_mib MiB" >&2
  exit 1
fi
echo "gpu-kit: $(((kit_bytes + tree_bytes) / 1048576)) MiB will travel (limit $limit_mib MiB)"
