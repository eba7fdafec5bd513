"""The peer: the same MLP 784-512-256-10 (ReLU, softmax cross-entropy, Adam, batch 128) in
Debian's PyTorch on Fashion-MNIST (scaled to [0, 1]; random data when not installed), with 1 and 2
threads. Prints samples/second. Run with /usr/bin/python3 and OPENBLAS_CORETYPE unset:
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 tests/bench/torch_mlp.py [EPOCHS]"""
import gzip
import os
import sys
import time

import torch

ROOT = "/usr/share/datasets/fashion-mnist/"


def idx(name):
    with gzip.open(ROOT + name) as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    return torch.frombuffer(bytearray(data[4 + 4 * dims:]), dtype=torch.uint8).reshape(shape)


epochs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
torch.manual_seed(7)
if os.path.exists(ROOT + "train-images-idx3-ubyte.gz"):
    x = idx("train-images-idx3-ubyte.gz").reshape(-1, 784).float() / 255
    y = idx("train-labels-idx1-ubyte.gz").long()
    xt = idx("t10k-images-idx3-ubyte.gz").reshape(-1, 784).float() / 255
    yt = idx("t10k-labels-idx1-ubyte.gz").long()
else:
    x, y = torch.rand(60000, 784), torch.randint(0, 10, (60000,))
    xt, yt = x[:1000], y[:1000]
samples = x.shape[0]
for threads in (1, 2):
    torch.set_num_threads(threads)
    model = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 256),
                                torch.nn.ReLU(), torch.nn.Linear(256, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()
    best = 0.0
    for epoch in range(epochs):
        perm = torch.randperm(samples)
        start = time.perf_counter()
        for i in range(0, samples, 128):
            idx_ = perm[i:i + 128]
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(model(x[idx_]), y[idx_])
            loss.backward()
            opt.step()
        rate = samples / (time.perf_counter() - start)
        best = max(best, rate)
        print(f"torch threads={threads} epoch={epoch + 1} samples/s={rate:.0f}", flush=True)
    with torch.no_grad():
        accuracy = (model(xt).argmax(1) == yt).float().mean().item()
    print(f"RESULT torch threads={threads} best_samples_per_second={best:.0f} test_accuracy={accuracy:.4f}",
          flush=True)
