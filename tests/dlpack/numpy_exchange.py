"""DLPack between xparray and NumPy, through tests/dlpack/exchange_library.cpp loaded with ctypes.

numpy_exchange.py LIBRARY: NumPy consumes xparray's capsules (numpy.from_dlpack) and xparray consumes
NumPy's (__dlpack__), versioned and legacy. Checks values, strides, that no byte is copied (the data
pointers agree), that a read-only NumPy array is copied and never written, and that each side's memory
is released exactly once, when the other side lets go of it. Exit status 0 when every check holds.
"""
import gc
import sys
import weakref

import numpy as np

import capsules
from capsules import Exported, alive, check, describe_import, finish, xp_import

capsules.load(sys.argv[1])

# --- xparray -> NumPy -----------------------------------------------------------------------------
exported = Exported(capsules.library.xp_export_matrix_view)
matrix = np.from_dlpack(exported)
check(matrix.dtype == np.float32 and matrix.shape == (3, 3), "numpy sees float32 (3, 3)")
check(matrix.strides == (24, 8), f"numpy's strides in bytes are (24, 8): {matrix.strides}")
check(matrix.tolist() == [[6, 8, 10], [12, 14, 16], [18, 20, 22]], f"values: {matrix.tolist()}")
check(matrix.ctypes.data == exported.data, "numpy views xparray's memory (same address)")
check(alive() == 1, "the tensor is alive while numpy holds it")
del exported
check(alive() == 1, "... after the capsule is gone too")
del matrix
check(alive() == 0, "numpy released it once, when its array died")

bools = np.from_dlpack(Exported(capsules.library.xp_export_bools))
check(bools.dtype == np.bool_ and bools.tolist() == [True, False, True, True],
      f"bool: {bools.dtype} {bools.tolist()}")
del bools
check(alive() == 0, "the bool tensor was released")

unconsumed = Exported(capsules.library.xp_export_matrix_view)
check(alive() == 1, "an exported tensor nobody consumes ...")
del unconsumed
check(alive() == 0, "... is released once by its capsule's destructor")

# --- NumPy -> xparray -----------------------------------------------------------------------------
base = np.arange(24, dtype=np.float64).reshape(4, 6).copy()  # owns its memory
view = base[1:, ::2]
base_alive = weakref.ref(base)
status, seen = xp_import(view.__dlpack__(max_version=(1, 0)), count=True)
check(status == 0, f"xparray imports numpy's versioned capsule: {seen}")
check(seen["dtype"] == "float64" and seen["shape"] == "3,3", f"dtype, shape: {seen['dtype']} ({seen['shape']})")
check(seen["strides"] == "6,2", f"strides in elements: {seen['strides']}")
check(seen["values"] == "6,8,10,12,14,16,18,20,22", f"values: {seen['values']}")
check(seen["data"] == view.ctypes.data, "xparray views numpy's memory (same address)")
view[0, 0] = 100.0
check(describe_import(0)["values"].startswith("100,"), "numpy's writes show in xparray's array")
del base, view
check(base_alive() is not None and not capsules.producer_deletions, "numpy's memory lives while xparray holds it")
capsules.library.xp_release_imports()
gc.collect()
check(base_alive() is None and len(capsules.producer_deletions) == 1, "released once, when xparray's array died")

legacy = np.array([[1, 2], [3, 4]], dtype=np.int32).T
status, seen = xp_import(legacy.__dlpack__())
check(status == 0 and seen["dtype"] == "int32" and seen["strides"] == "1,2" and seen["values"] == "1,3,2,4",
      f"the legacy capsule (DLManagedTensor): {seen}")
check(seen["data"] == legacy.ctypes.data, "... without a copy")
status, seen = xp_import(np.array([True, False]).__dlpack__(max_version=(1, 0)))
check(status == 0 and seen["dtype"] == "bool" and seen["values"] == "1,0", f"bool: {seen}")
capsules.library.xp_release_imports()

frozen = np.arange(3, dtype=np.float64)
frozen.flags.writeable = False
frozen_alive = weakref.ref(frozen)
status, seen = xp_import(frozen.__dlpack__(max_version=(1, 0)))
check(status == 0 and seen["values"] == "0,1,2", f"a read-only array is imported: {seen}")
check(seen["data"] != frozen.ctypes.data, "... as a copy")
del frozen
gc.collect()
check(frozen_alive() is None, "... and numpy's array was released at once")
status, seen = xp_import(np.arange(3.0)[::1].copy().__dlpack__(max_version=(1, 0)), copy=1)
check(status == 0 and seen["values"] == "0,1,2", "copy=true copies a writable array")
readonly = np.arange(3.0)
readonly.flags.writeable = False
status, seen = xp_import(readonly.__dlpack__(max_version=(1, 0)), copy=0)
check(status == 1 and seen.startswith("ValueError: from_dlpack: the tensor is read-only"), f"copy=false: {seen}")
capsules.library.xp_release_imports()

halves = np.array([0.5, -2.0, 65504.0], dtype=np.float16)
status, seen = xp_import(halves.__dlpack__(max_version=(1, 0)))
check(status == 0 and seen["dtype"] == "float16" and seen["values"] == "0.5,-2,65504" and seen["data"] == halves.ctypes.data,
      f"float16: a view of numpy's memory: {seen}")
pairs = np.array([1 + 2j, -3j], dtype=np.complex64)
status, seen = xp_import(pairs.__dlpack__(max_version=(1, 0)))
# The library's summary prints the values as float64: complex numbers' real parts.
check(status == 0 and seen["dtype"] == "complex64" and seen["values"] == "1,-0" and seen["data"] == pairs.ctypes.data,
      f"complex64: a view of numpy's memory: {seen}")

sys.exit(finish(f"numpy {np.__version__}"))
