"""DLPack between xparray and CuPy / PyTorch on gpu(0), through tests/dlpack/exchange_library.cpp.

gpu_exchange.py LIBRARY: for each of CuPy and PyTorch that is installed (a framework that is not is
reported as skipped; none at all fails): the framework consumes xparray's GPU capsule (no copy: the
device pointers agree; values and strides; released once when its array dies), and xparray consumes the
framework's strided GPU view (no copy; values; the producer's deleter called once when xparray lets go).
Run by scripts/gpu.sh on a machine with a GPU.
"""
import gc
import importlib
import sys

import capsules
from capsules import Exported, alive, check, finish, xp_import

capsules.load(sys.argv[1])


def framework_capsule(array):
    """The framework's versioned capsule where it makes them, else its legacy one."""
    try:
        return array.__dlpack__(max_version=(1, 0))
    except TypeError:
        return array.__dlpack__()


def exchange(name, from_dlpack, to_host, pointer, strides_in_elements, arange):
    exported = Exported(capsules.library.xp_export_matrix_view, "gpu(0)")
    matrix = from_dlpack(exported)
    check(to_host(matrix) == [[6, 8, 10], [12, 14, 16], [18, 20, 22]], f"{name} reads xparray's GPU view")
    check(strides_in_elements(matrix) == (6, 2), f"{name}'s strides: {strides_in_elements(matrix)}")
    check(pointer(matrix) == exported.data, f"{name} views xparray's GPU memory (same address)")
    del exported
    check(alive() == 1, f"alive while {name} holds it")
    del matrix
    check(alive() == 0, f"{name} released it once")

    deletions = len(capsules.producer_deletions)
    view = arange(24).reshape(4, 6)[1:, ::2]
    capsule = framework_capsule(view)
    versioned = capsule_is_versioned(capsule)
    status, seen = xp_import(capsule, count=versioned)
    check(status == 0 and seen["device"] == "gpu(0)" and seen["strides"] == "6,2"
          and seen["values"] == "6,8,10,12,14,16,18,20,22", f"xparray reads {name}'s GPU view: {seen}")
    check(status == 0 and seen["data"] == pointer(view), "... without a copy")
    del view, capsule
    gc.collect()
    check(len(capsules.producer_deletions) == deletions, f"{name}'s memory lives while xparray holds it")
    capsules.library.xp_release_imports()
    gc.collect()
    if versioned:
        check(len(capsules.producer_deletions) == deletions + 1, f"{name}'s deleter ran once, at the release")
    else:
        print(f"note    {name} made a legacy capsule: its deleter is not counted")


def capsule_is_versioned(capsule):
    return capsules.python.PyCapsule_IsValid(id(capsule), capsules.VERSIONED) == 1


tried = 0
try:
    cupy = importlib.import_module("cupy")
    tried += 1
    exchange("cupy", cupy.from_dlpack, lambda a: a.get().tolist(), lambda a: a.data.ptr,
             lambda a: tuple(s // a.itemsize for s in a.strides),
             lambda n: cupy.arange(n, dtype=cupy.float64))
except ImportError:
    print("skipped CuPy: not installed")
try:
    torch = importlib.import_module("torch")
    tried += 1
    exchange("torch", torch.from_dlpack, lambda a: a.cpu().tolist(), lambda a: a.data_ptr(),
             lambda a: tuple(a.stride()), lambda n: torch.arange(n, dtype=torch.float64, device="cuda:0"))
except ImportError:
    print("skipped PyTorch: not installed")
check(tried > 0, "at least one of CuPy and PyTorch is installed")
sys.exit(finish("GPU DLPack exchange"))
