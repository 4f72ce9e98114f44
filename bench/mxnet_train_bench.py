"""MXNet 1.9.1's Gluon running bench/train_bench.cpp's step: a 64-512-512-10 MLP (relu), softmax
cross-entropy, backward, SGD with momentum 0.9, batch 256 on cpu(0); imperative (Gluon's default) and
hybridized. Prints "mxnet_mlp_step 256 <seconds>" and "mxnet_hybrid_mlp_step 256 <seconds>" per
round."""
import argparse
import os
import statistics
import time
import warnings

warnings.filterwarnings("ignore")
import mxnet as mx  # noqa: E402
from mxnet import autograd, gluon, nd  # noqa: E402


def make_step(hybridize):
    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(512, activation="relu", in_units=64), gluon.nn.Dense(512, activation="relu", in_units=512),
            gluon.nn.Dense(10, in_units=512))
    net.initialize(mx.init.Xavier(), ctx=mx.cpu(0))
    if hybridize:
        net.hybridize(static_alloc=True, static_shape=True)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.01, "momentum": 0.9})
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    x = nd.random.uniform(-1, 1, (256, 64))
    y = nd.floor(nd.random.uniform(0, 10, (256,)))

    def step():
        with autograd.record():
            l = loss(net(x), y)
        l.backward()
        trainer.step(256)
    return step


def seconds_per_step(step, calls):
    start = time.perf_counter()
    for _ in range(calls):
        step()
    nd.waitall()  # MXNet's engine runs asynchronously: the steps are done only here
    return (time.perf_counter() - start) / calls


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    mx.random.seed(1)
    steps = {"mxnet_mlp_step": make_step(False), "mxnet_hybrid_mlp_step": make_step(True)}
    for step in steps.values():
        for _ in range(20):
            step()
        nd.waitall()
    print(f"# MXNet {mx.__version__}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset (every core)')}")
    for _ in range(rounds):
        for name, step in steps.items():
            print(f"{name} 256 {statistics.median(seconds_per_step(step, 20) for _ in range(5)):.9f}")


if __name__ == "__main__":
    main()
