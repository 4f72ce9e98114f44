"""The arrays of the MXNet parameter-file fixtures, shared by the script that writes them with MXNet 1.9.1
(make_fixture.py) and the one that reads xparray's file back with MXNet (check_params.py). The C++ side
(tests/test_gluon_save_load.cpp, tests/mxnet/write_params.cpp) states the same values."""
import numpy as np

ARRAYS = {
    "f32": np.array([[1.5, -2.0, 3.25], [0.0, 1e-3, -7.0]], dtype=np.float32),
    "f64": np.array([np.pi, -1e300], dtype=np.float64),
    "i32": np.array([-7, 0, 2147483647], dtype=np.int32),
    "i64": np.array([-(1 << 40), 5], dtype=np.int64),
    "u8": np.array([0, 255, 17], dtype=np.uint8),
    "i8": np.array([-128, 127], dtype=np.int8),
}

# A Dense(2) layer over 3 inputs, as Gluon's save_parameters names it inside a Sequential.
DENSE = {
    "0.weight": np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=np.float32),
    "0.bias": np.array([0.125, -3.0], dtype=np.float32),
}
