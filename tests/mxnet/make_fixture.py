"""Writes the parameter files tests/fixtures/mxnet-1.9.1/*.params with MXNet 1.9.1 itself (run once; the
files are committed): `mx.nd.save` of arrays of six dtypes, and Gluon's `save_parameters` of a Dense layer.

    python3 -m venv /tmp/mxnet && /tmp/mxnet/bin/pip install mxnet==1.9.1 "numpy<1.24"
    /tmp/mxnet/bin/python3 tests/mxnet/make_fixture.py tests/fixtures/mxnet-1.9.1
"""
import os
import sys

import mxnet as mx

from fixture_values import ARRAYS, DENSE


def main():
    out = sys.argv[1]
    assert mx.__version__ == "1.9.1", f"MXNet {mx.__version__}: the fixtures are MXNet 1.9.1's"
    os.makedirs(out, exist_ok=True)
    mx.nd.save(os.path.join(out, "arrays.params"), {name: mx.nd.array(a, dtype=a.dtype) for name, a in ARRAYS.items()})
    net = mx.gluon.nn.Sequential()
    net.add(mx.gluon.nn.Dense(2, in_units=3))
    net.initialize()
    net[0].weight.set_data(mx.nd.array(DENSE["0.weight"]))
    net[0].bias.set_data(mx.nd.array(DENSE["0.bias"]))
    net.save_parameters(os.path.join(out, "dense.params"))
    print(f"make_fixture: wrote arrays.params and dense.params into {out} with MXNet {mx.__version__}")


if __name__ == "__main__":
    main()
