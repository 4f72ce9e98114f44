"""Writes scikit-learn's 8x8 digits (1797 images) as a parameter file xparray reads with xp::load
(MXNet's NDArray list format): train_data / test_data float32 (n, 64) scaled to [0, 1], train_label /
test_label int32 (n,); a stratified 80/20 split with a fixed seed."""
import os
import struct
import sys

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

LIST_MAGIC, ARRAY_V2 = 0x112, 0xF993FAC9
TYPE_FLAGS = {np.dtype(np.float32): 0, np.dtype(np.int32): 4}


def array_bytes(a):
    a = np.ascontiguousarray(a)
    header = struct.pack("<Iii", ARRAY_V2, 0, a.ndim) + struct.pack("<%dq" % a.ndim, *a.shape)
    return header + struct.pack("<iii", 1, 0, TYPE_FLAGS[a.dtype]) + a.astype(a.dtype.newbyteorder("<")).tobytes()


def main(path):
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int32)
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.2, random_state=0, stratify=y)
    arrays = {"train_data": x_train, "train_label": y_train, "test_data": x_test, "test_label": y_test}
    out = struct.pack("<QQQ", LIST_MAGIC, 0, len(arrays))
    out += b"".join(array_bytes(a) for a in arrays.values())
    out += struct.pack("<Q", len(arrays))
    out += b"".join(struct.pack("<Q", len(name)) + name.encode() for name in arrays)
    with open(path + ".part", "wb") as f:
        f.write(out)
    os.replace(path + ".part", path)
    print("digits: %d training and %d test images -> %s" % (len(y_train), len(y_test), path))


if __name__ == "__main__":
    main(sys.argv[1])
