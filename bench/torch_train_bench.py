"""PyTorch (CPU) running bench/train_bench.cpp's step: a 64-512-512-10 MLP (relu), cross-entropy,
backward, SGD with momentum 0.9, batch 256. Prints "torch_mlp_step 256 <seconds>" per round."""
import argparse
import os
import statistics
import time

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    torch.manual_seed(1)
    # As many threads as xparray's OpenMP loops get (every core this process may use): PyTorch's own default
    # can be fewer (one on this 2-core VM).
    if "OMP_NUM_THREADS" not in os.environ:
        torch.set_num_threads(len(os.sched_getaffinity(0)))
    net = torch.nn.Sequential(torch.nn.Linear(64, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512), torch.nn.ReLU(),
                              torch.nn.Linear(512, 10))
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    loss = torch.nn.CrossEntropyLoss()
    x = torch.rand(256, 64) * 2 - 1
    y = torch.randint(0, 10, (256,))

    def step():
        optimizer.zero_grad()
        loss(net(x), y).backward()
        optimizer.step()

    def seconds_per_step(calls):
        start = time.perf_counter()
        for _ in range(calls):
            step()
        return (time.perf_counter() - start) / calls

    for _ in range(20):
        step()
    backends = torch.backends
    print(f"# PyTorch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"MKL {'on' if backends.mkl.is_available() else 'off'}, "
          f"oneDNN (mkldnn) {'on' if backends.mkldnn.is_available() and backends.mkldnn.enabled else 'off'}")
    for _ in range(rounds):
        print(f"torch_mlp_step 256 {statistics.median(seconds_per_step(20) for _ in range(5)):.9f}")


if __name__ == "__main__":
    main()
