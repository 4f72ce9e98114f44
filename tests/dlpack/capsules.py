"""The DLPack protocol's Python side, by ctypes, over tests/dlpack/exchange_library.cpp: capsules that
hand xparray's tensors to a framework's from_dlpack, and a consumer's handling of the framework's
capsules (renamed to used_..., given to xp::from_dlpack). Shared by numpy_exchange.py and gpu_exchange.py.
"""
import ctypes
import gc

library = None


def load(path):
    global library
    library = ctypes.CDLL(path)
    library.xp_export_matrix_view.restype = ctypes.c_void_p
    library.xp_export_matrix_view.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    library.xp_export_bools.restype = ctypes.c_void_p
    library.xp_export_bools.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    library.xp_delete_tensor.argtypes = [ctypes.c_void_p]
    library.xp_import.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
    library.xp_describe_import.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int]


python = ctypes.pythonapi
python.PyCapsule_New.restype = ctypes.py_object
python.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
python.PyCapsule_GetPointer.restype = ctypes.c_void_p
python.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
python.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
# The destructor sees a capsule whose reference count is already zero: raw pointers only.
python.PyCapsule_IsValid.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
raw_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", python))

# A capsule keeps a pointer to its name: these live as long as the module.
VERSIONED = b"dltensor_versioned"
LEGACY = b"dltensor"
USED = {VERSIONED: b"used_dltensor_versioned", LEGACY: b"used_dltensor"}


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def release_unconsumed(capsule):
    """The DLPack protocol's capsule destructor: a capsule nobody consumed releases its tensor."""
    if python.PyCapsule_IsValid(capsule, VERSIONED):
        library.xp_delete_tensor(raw_get_pointer(capsule, VERSIONED))


class Exported:
    """What a framework's from_dlpack takes: an object with __dlpack__ and __dlpack_device__, here over
    one of the library's exports (export(device, &data)) on "cpu(0)" or "gpu(N)". to_dlpack waited for
    the array's work on the host, so the consumer's stream needs no ordering."""

    def __init__(self, export, device="cpu(0)"):
        data = ctypes.c_void_p()
        self.capsule = python.PyCapsule_New(export(device.encode(), ctypes.byref(data)), VERSIONED,
                                            ctypes.cast(release_unconsumed, ctypes.c_void_p))
        self.data = data.value
        self.device = (2, int(device[4:-1])) if device.startswith("gpu") else (1, 0)  # kDLCUDA, kDLCPU

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        assert max_version is None or max_version[0] >= 1, max_version
        return self.capsule

    def __dlpack_device__(self):
        return self.device


failures = []


def finish(what):
    print(f"{what}: {'all checks hold' if not failures else f'{len(failures)} FAILED'}")
    return 1 if failures else 0


def check(condition, what):
    print(("ok      " if condition else "FAILED  ") + what)
    if not condition:
        failures.append(what)


def alive():
    """Tensors xparray exported that their consumer has not released yet."""
    gc.collect()
    return library.xp_exported_alive()


DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class ManagedHead(ctypes.Structure):
    """The start of DLManagedTensorVersioned: what precedes the DLTensor."""
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64)]


producer_deletions = []  # one entry per call of the producer's deleter on a tensor xparray imported
counting_deleters = []  # the ctypes callbacks, kept alive until the end


def count_deletions(pointer):
    """Puts a counting deleter in front of the producer's own (versioned tensors)."""
    head = ManagedHead.from_address(pointer)
    producer_deleter = DELETER(head.deleter)

    @DELETER
    def counting(managed):
        producer_deletions.append(managed)
        head.deleter = ctypes.cast(producer_deleter, ctypes.c_void_p)
        producer_deleter(managed)

    counting_deleters.append(counting)
    head.deleter = ctypes.cast(counting, ctypes.c_void_p)


def xp_import(capsule, copy=-1, count=False):
    """Consumes a framework's capsule as DLPack's consumers do (renamed to used_...): (status, report), the
    report parsed into a dict, or the error's text. copy: -1 unset, 0 false, 1 true."""
    versioned = python.PyCapsule_IsValid(id(capsule), VERSIONED) == 1
    name = VERSIONED if versioned else LEGACY
    pointer = python.PyCapsule_GetPointer(capsule, name)
    python.PyCapsule_SetName(capsule, USED[name])
    if count:
        count_deletions(pointer)
    report = ctypes.create_string_buffer(4096)
    status = library.xp_import(pointer, int(versioned), copy, report, len(report))
    return status, parse(report.value.decode())


def parse(report):
    """ "dtype=float64 shape=3,3 ..." -> {"dtype": "float64", "shape": "3,3", ...}; errors stay text."""
    if report.startswith(("TypeError", "ValueError", "other")):
        return report
    fields = dict(part.split("=", 1) for part in report.split(" "))
    fields["data"] = int(fields["data"])
    return fields


def describe_import(i):
    """The i-th imported array as it is now."""
    report = ctypes.create_string_buffer(4096)
    library.xp_describe_import(i, report, len(report))
    return parse(report.value.decode())
