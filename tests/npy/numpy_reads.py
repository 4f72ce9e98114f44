#!/usr/bin/env python3
"""NumPy reads what save_npy and savez wrote: runs xp_npy_writer into a temporary folder, then np.load's
every file and checks its type, shape and values against make_fixtures.py's, and a .npy's bytes against
np.save of the same array. Usage: numpy_reads.py XP_NPY_WRITER"""
import io
import pathlib
import subprocess
import sys
import tempfile

import ml_dtypes
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from make_fixtures import CODES, npz_arrays, values  # noqa: E402


def expect(path, wanted):
    got = np.load(path)
    assert got.dtype == wanted.dtype, f"{path.name}: dtype {got.dtype}, not {wanted.dtype}"
    assert got.shape == wanted.shape, f"{path.name}: shape {got.shape}, not {wanted.shape}"
    assert np.array_equal(got, wanted), f"{path.name}: {got!r}, not {wanted!r}"
    saved = io.BytesIO()
    np.save(saved, wanted)
    assert path.read_bytes() == saved.getvalue(), f"{path.name}: not the bytes np.save writes"
    return got


def main():
    with tempfile.TemporaryDirectory() as folder:
        out = pathlib.Path(folder)
        subprocess.run([sys.argv[1], str(out)], check=True, timeout=60)
        for code in CODES:
            expect(out / f"x_{code}.npy", values(code).astype(code))
        expect(out / "transposed_i4.npy", np.ascontiguousarray(values("i4").astype("<i4").T))
        expect(out / "scalar.npy", np.array(3.5))
        expect(out / "empty.npy", np.zeros((0, 3), dtype="<f4"))
        bf16 = np.load(out / "bf16.npy").view(ml_dtypes.bfloat16)
        assert bf16.tolist() == [1, -2.5, 3.25], f"bf16.npy: {bf16!r}"
        checked = len(CODES) + 4
        if (out / "gpu_f4.npy").exists():
            expect(out / "gpu_f4.npy", values("f4").astype("<f4"))
            checked += 1
        for name in ("stored.npz", "deflated.npz"):
            with np.load(out / name) as archive:
                wanted = npz_arrays()
                assert archive.files == list(wanted), f"{name}: members {archive.files}"
                for key, array in wanted.items():
                    got = archive[key]
                    assert got.dtype == array.dtype.newbyteorder("<") and got.shape == array.shape, f"{name}: {key}"
                    assert np.array_equal(got, array), f"{name}: {key}: {got!r}, not {array!r}"
        with np.load(out / "many.npz") as archive:
            assert len(archive.files) == 65536, f"many.npz: {len(archive.files)} members"
            for i in (0, 1, 40000, 65535):
                assert archive[f"a{i}"] == i, f"many.npz: a{i} is {archive[f'a{i}']!r}"
        checked += 3
        print(f"numpy_reads: NumPy {np.__version__} read {checked} files as xparray wrote them")


if __name__ == "__main__":
    main()
