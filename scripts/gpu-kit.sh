#!/usr/bin/env bash
# Runs here (Debian, with apt): gathers into .gpu-kit/ (ignored by git) what the GPU machine lacks to
# build and test xparray: the Debian packages of the build's libraries with everything they need at run
# time, downloaded with `apt-get download` and never installed. scripts/gpu.sh unpacks them into a
# private prefix there. Idempotent: a second run downloads nothing and leaves the same kit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

kit=.gpu-kit
limit_mib=60
# What the build finds with find_package, the openssl command the HTTPS download tests call, and
# OpenMPI's libraries and mpirun (xp::dist), each with what it needs at run time.
wanted=(doctest-dev libeigen3-dev libssl-dev libcurl4-openssl-dev libopenblas-openmp-dev openssl
  libdlpack-dev libopenmpi3 openmpi-bin)
# Taken without their dependencies: libopenmpi-dev's headers and link names are all the build uses of it
# (it depends on Fortran compilers and -dev packages that would triple the kit).
wanted_alone=(libopenmpi-dev)
# Every machine that runs nvcc has these (the C library, GCC's runtime), and a copy from here must
# never stand in for them; pkg-config is not used by the build; the package system's own tools and
# the logins' (dpkg, passwd, PAM, ssh: mpirun starts local processes without ssh) are never run.
host_provided='^(libc6|libgcc-s1|libstdc\+\+6|gcc-[0-9]+-base|pkg-config|pkgconf|pkgconf-bin|libpkgconf[0-9]+'
host_provided+='|dpkg|tar|passwd|adduser|debconf|cdebconf|libdebian-installer4|install-info|openssh-client'
host_provided+='|libpam.*|libsemanage.*|libsepol2|libaudit.*|readline-common|libnewt0.52|libslang2|libtextwrap1)$'

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ! apt-cache show "${wanted[0]}" >/dev/null 2>&1; then
  $sudo apt-get update -qq
fi

# The wanted packages and, recursively, what they depend on.
mapfile -t packages < <(
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
    --no-enhances "${wanted[@]}" | grep -v '^ ' | grep -v '^<' | grep -Ev "$host_provided" | sort -u)
packages+=("${wanted_alone[@]}")

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

bytes=$(du -cb "$kit"/debs/*.deb | tail -1 | cut -f1)
mib=$((bytes / 1048576))
echo "gpu-kit: ${#keep[@]} packages, $mib MiB in $kit/ (limit $limit_mib MiB)"
if ((bytes > limit_mib * 1048576)); then
  echo "gpu-kit: the kit is over $limit_mib MiB" >&2
  exit 1
fi
