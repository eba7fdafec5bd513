"""The peer: the same MLP 784-512-256-10 (ReLU, softmax cross-entropy, Adam, batch 128) in
Debian's PyTorch on Fashion-MNIST (scaled to [0, 1]; random data when not installed), with 1 and 2
threads. Prints samples/second. Run it tuned, as compare.sh does: Debian's OpenBLAS (OpenMP build)
as the BLAS, OMP_WAIT_POLICY=passive, OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset:
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_WAIT_POLICY=passive \\
        LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-openmp /usr/bin/python3 tests/bench/torch_mlp.py [EPOCHS] [SAMPLES]"""
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


def load(samples):
    """Training and test images as float rows of 784 in [0, 1], and their labels."""
    if os.path.exists(ROOT + "train-images-idx3-ubyte.gz"):
        x = idx("train-images-idx3-ubyte.gz").reshape(-1, 784).float() / 255
        y = idx("train-labels-idx1-ubyte.gz").long()
        xt = idx("t10k-images-idx3-ubyte.gz").reshape(-1, 784).float() / 255
        yt = idx("t10k-labels-idx1-ubyte.gz").long()
    else:
        x, y = torch.rand(60000, 784), torch.randint(0, 10, (60000,))
        xt, yt = x[:1000], y[:1000]
    return x[:samples], y[:samples], xt, yt


def blas_in_use():
    """The BLAS libraries this process has mapped: a ratio against the reference BLAS means nothing."""
    with open("/proc/self/maps") as f:
        paths = {line.split()[-1] for line in f if "blas" in line.split()[-1]}
    return ",".join(sorted(paths)) or "none"


def run(name, make_model, shape, batch=128, reconstruction=False):
    """Trains make_model() on 1 then 2 threads and prints each epoch's samples/s and a RESULT line.
    reconstruction: the target is the input itself (sigmoid output with binary cross-entropy, as
    logits into BCEWithLogitsLoss), and the test figure is the MSE of the reconstructions."""
    epochs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 60000
    torch.manual_seed(7)
    x, y, xt, yt = load(samples)
    x, xt = x.reshape(-1, *shape), xt.reshape(-1, *shape)
    if reconstruction:
        y, yt = x.reshape(x.shape[0], -1), xt.reshape(xt.shape[0], -1)
    n = x.shape[0]
    print(f"torch {torch.__version__}, BLAS {blas_in_use()}, OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY')}",
          flush=True)
    for threads in (1, 2):
        torch.set_num_threads(threads)
        model = make_model()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        loss_fn = torch.nn.BCEWithLogitsLoss() if reconstruction else torch.nn.CrossEntropyLoss()
        best = 0.0
        for epoch in range(epochs):
            model.train()
            perm = torch.randperm(n)
            start = time.perf_counter()
            for i in range(0, n, batch):
                idx_ = perm[i:i + batch]
                opt.zero_grad(set_to_none=True)
                loss = loss_fn(model(x[idx_]), y[idx_])
                loss.backward()
                opt.step()
            rate = n / (time.perf_counter() - start)
            best = max(best, rate)
            print(f"torch net={name} threads={threads} epoch={epoch + 1} samples/s={rate:.0f}", flush=True)
        model.eval()
        with torch.no_grad():
            out = model(xt)
            if reconstruction:
                figure = f"test_mse={((torch.sigmoid(out) - yt) ** 2).mean().item():.6f}"
            else:
                figure = f"test_accuracy={(out.argmax(1) == yt).float().mean().item():.4f}"
        print(f"RESULT torch net={name} threads={threads} best_samples_per_second={best:.0f} {figure}", flush=True)


def mlp():
    return torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 256),
                               torch.nn.ReLU(), torch.nn.Linear(256, 10))


if __name__ == "__main__":
    run("mlp", mlp, (784,))
