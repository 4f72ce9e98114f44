#!/usr/bin/env python3
"""Writes tests/fixtures/npy/: .npy files as NumPy writes them, which tests/test_npy.cpp reads and
compares byte for byte with what save_npy writes. Run from anywhere with NumPy and ml_dtypes (the
checkout's .venv has both); the files are committed, so the tests need neither.

  le_<code>.npy   the 2 x 3 array of every type, little-endian (the byte order NumPy writes here)
  be_<code>.npy   the same values big-endian (every type wider than a byte)
  fortran_i4.npy  a 2 x 3 x 4 int32 array in Fortran order; c_i4.npy the same values in C order
  transposed_i4.npy  the C-order file of le_i4's transpose (what save_npy writes for the view)
  v2_f8.npy, v3_f8.npy  le_f8's array in format versions 2.0 and 3.0
  scalar_f8.npy   a 0-d float64 (3.5); empty_f4.npy a float32 array of shape (0, 3)
  bf16.npy        ml_dtypes' bfloat16 [1, -2.5, 3.25] (NumPy writes its descr as '<V2')
  savez.npz, savez_compressed.npz  np.savez and np.savez_compressed of npz_arrays() (in that order)
  zip64_end.npz   savez.npz with ZIP64's end records (what a writer of more than 65535 members or 4 GiB
                  writes), made here: Python writes them only when needed
"""
import pathlib
import struct

import ml_dtypes
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "npy"
CODES = ["b1", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"]


def values(code):
    """-3..2 for signed, float and bool (0 is the only False), 0..5 for unsigned; complex parts -3..2, 0..2.5."""
    base = np.arange(6).reshape(2, 3) - 3
    if code[0] == "u":
        base = base + 3
    if code[0] == "c":
        return base + 0.5j * (base + 3)
    return base


def npz_arrays():
    """The arrays of the .npz fixtures: le_i4's values, c16's, a 0-d float64, a big-endian Fortran-order
    float32 block and an empty bool array; the member "é" has a UTF-8 name."""
    return {
        "i4": values("i4").astype("<i4"),
        "c16": values("c16").astype("<c16"),
        "scalar": np.array(3.5),
        "fortran_be": np.asfortranarray(np.arange(24, dtype=">f4").reshape(2, 3, 4) - 5),
        "\u00e9": np.zeros((0,), dtype="|b1"),
    }


def with_zip64_end(archive):
    """The archive with a ZIP64 end-of-directory record and locator before its end record, whose figures
    become 0xffff and 0xffffffff ("see ZIP64")."""
    end = archive.rfind(b"PK\5\6")
    members, size, offset = struct.unpack("<10xHII2x", archive[end:end + 22])
    record = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, members, members, size, offset)
    locator = struct.pack("<IIQI", 0x07064B50, 0, end, 1)
    return archive[:end] + record + locator + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF,
                                                          0xFFFFFFFF, 0xFFFFFFFF, 0)


def save(name, array, version=None):
    with open(OUT / name, "wb") as file:
        if version is None:
            np.save(file, array)
        else:
            np.lib.format.write_array(file, array, version=version)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for code in CODES:
        little = values(code).astype("<" + code if code not in ("b1", "i1", "u1") else "|" + code)
        save(f"le_{code}.npy", little)
        if little.dtype.itemsize > 1:
            save(f"be_{code}.npy", little.astype(little.dtype.newbyteorder(">")))
    block = np.arange(24, dtype="<i4").reshape(2, 3, 4) - 5
    save("fortran_i4.npy", np.asfortranarray(block))
    save("c_i4.npy", block)
    save("transposed_i4.npy", np.ascontiguousarray(values("i4").astype("<i4").T))
    save("v2_f8.npy", values("f8").astype("<f8"), version=(2, 0))
    save("v3_f8.npy", values("f8").astype("<f8"), version=(3, 0))
    save("scalar_f8.npy", np.float64(3.5))
    save("empty_f4.npy", np.zeros((0, 3), dtype="<f4"))
    save("bf16.npy", np.array([1, -2.5, 3.25], dtype=ml_dtypes.bfloat16))
    np.savez(OUT / "savez.npz", **npz_arrays())
    np.savez_compressed(OUT / "savez_compressed.npz", **npz_arrays())
    (OUT / "zip64_end.npz").write_bytes(with_zip64_end((OUT / "savez.npz").read_bytes()))
    print(f"make_fixtures: {len(list(OUT.glob('*.np?')))} files in {OUT} (NumPy {np.__version__})")


if __name__ == "__main__":
    main()
