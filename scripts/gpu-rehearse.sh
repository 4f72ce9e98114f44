#!/usr/bin/env bash
# The dry run of scripts/gpu.sh as the GPU machine will see it, proving that the kit alone is enough:
# makes the kit (scripts/gpu-kit.sh), copies what a GPU run carries (the tracked files and .gpu-kit/) to
# another folder (the tracked files and those git does not ignore, as the GPU tool sends them), and runs that copy's gpu.sh in a mount namespace where this machine's own copies are
# hidden: OpenMPI (libraries, plugins, settings, help files, mpirun and its kin), PMIx, OpenBLAS, FFTW3, the doctest,
# DLPack, libcurl and OpenBLAS headers (empty tmpfs over their folders, /dev/null over the programs), and
# this checkout's build; the linker cache is rebuilt to match. So the kit's relocation (OPAL_PREFIX, PMIx,
# the build's $ORIGIN paths) is really tried, up to `mpirun -np 2` of the dist tests. Ends by checking
# that summary.txt and logs.tar.gz are the only files in the output folder, and keeps them in
# build/gpu-rehearsal/. Needs root (unshare -m). Every step but the whole suite (the same binary's suite
# that the test command ran just before, two minutes here): XP_GPU_STEPS, when set, chooses instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD
[ "$(id -u)" -eq 0 ] || { echo "gpu-rehearse: needs root (mount namespaces)" >&2; exit 1; }
scripts/gpu-kit.sh

copy=$(mktemp -d /tmp/xparray-gpu-rehearsal.XXXXXX)
trap 'rm -rf "$copy"' EXIT
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$copy"
cp -r .gpu-kit "$copy/"
out=$copy/build/gpu-report
echo "gpu-rehearse: the GPU run's copy is $copy; this checkout's build and the system's OpenMPI, PMIx and OpenBLAS are hidden"

lib=/usr/lib/$(uname -m)-linux-gnu
include=/usr/include/$(uname -m)-linux-gnu
hidden_folders=("$lib/openmpi" "$lib/pmix2" "$lib/openblas-openmp" /usr/share/openmpi /etc/openmpi
  /usr/include/doctest /usr/include/dlpack "$include/curl" "$include/openblas-openmp" "$repo/build")
hidden_programs=(mpirun mpiexec orterun orted ompi_info ompi-server orte-info)
status=0
# The run's Python: this checkout's .venv (NumPy for the differential test); the GPU machine's python3 has it.
steps=${XP_GPU_STEPS:-gpu-tests user-module sanitize-1 sanitize-2 dlpack-gpu dist bench differential faults}
unshare -m --propagation private env XP_GPU_OUT="$out" XP_GPU_PYTHON="$repo/.venv/bin/python3" XP_GPU_STEPS="$steps" \
  bash -euo pipefail -c '
  copy=$1 lib=$2
  shift 2
  folders=() programs=()
  while [ "$1" != -- ]; do folders+=("$1"); shift; done
  shift
  programs=("$@")
  for folder in "${folders[@]}"; do
    [ -d "$folder" ] && mount -t tmpfs -o size=1m hidden "$folder" && echo "hidden: $folder"
  done
  for program in "${programs[@]}"; do
    path=$(readlink -f "/usr/bin/$program" 2>/dev/null) || continue
    [ -f "$path" ] && mount --bind /dev/null "$path" && echo "hidden: /usr/bin/$program ($path)"
  done
  # OpenMPI'"'"'s own libraries and FFTW3'"'"'s lie in the common folder itself.
  for library in $(readlink -f "$lib"/libmpi*.so.* "$lib"/libopen-pal.so.* "$lib"/libopen-rte.so.* \
                     "$lib"/libmca_common_*.so.* "$lib"/libfftw3*.so.* | sort -u); do
    [ -f "$library" ] && mount --bind /dev/null "$library" && echo "hidden: $library"
  done
  ldconfig -X -C "$copy/ld.so.cache"  # -X: the links in /usr/lib are shared with the machine, never touched
  mount --bind "$copy/ld.so.cache" /etc/ld.so.cache
  echo "linker cache rebuilt: $(ldconfig -p | grep -c "libmpi\|libpmix\|libopenblas") entries for OpenMPI, PMIx or OpenBLAS"
  "$copy/scripts/gpu.sh"
' _ "$copy" "$lib" "${hidden_folders[@]}" -- "${hidden_programs[@]}" || status=$?

files=$(cd "$out" && find . -type f | sort | paste -sd ' ')
mkdir -p build/gpu-rehearsal
cp "$out"/* build/gpu-rehearsal/ 2>/dev/null || true
echo "gpu-rehearse: the output folder holds: $files"
if [ "$files" != "./logs.tar.gz ./summary.txt" ]; then
  echo "gpu-rehearse: FAILED: the output folder must hold summary.txt and logs.tar.gz alone" >&2
  status=1
fi
((status == 0)) && echo "gpu-rehearse: passed" || echo "gpu-rehearse: FAILED (gpu.sh exit $status)"
exit "$status"
