"""PyTorch's test accuracy for the reference's GRU example (Fashion-MNIST as 28 steps of 28
features, GRU 64 -> BatchNorm -> dense 10) with the settings of `skynnet-cli train --data
train-images-idx3-ubyte.gz --test-data t10k-images-idx3-ubyte.gz --as-sequence rows --layers
gru:64,bn --epochs 5 --batch 128`: 10% of the training images held out for validation (the CLI's
default), Adam 1e-3 (its default), batch 128 unless SKYNNET_BATCH says otherwise, pixels scaled to
[0, 1] (the CLI's default pixel-range scaling: Fashion-MNIST's training pixels span 0..255), the
t10k files as the test set, the last epoch's weights (no early stopping); SKYNNET_THREADS threads
(default 1: on a shared 2-core machine PyTorch's 2-thread barriers stall, and the figures hardly
depend on it). One line per seed, then the mean:
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_WAIT_POLICY=passive \\
        LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-openmp \\
        [SKYNNET_THREADS=1] [SKYNNET_BATCH=128] /usr/bin/python3 \\
        tests/bench/torch_gru_accuracy.py [EPOCHS=5] [SEEDS=1 2 3]"""
import os
import sys

import torch

from torch_gru import gru
from torch_mlp import load


def main():
    epochs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    seeds = [int(s) for s in sys.argv[2:]] or [1, 2, 3]
    batch = int(os.environ.get("SKYNNET_BATCH", "128"))
    threads = int(os.environ.get("SKYNNET_THREADS", "1"))
    torch.set_num_threads(threads)
    x, y, xt, yt = load(60000)
    x, xt = x.reshape(-1, 28, 28), xt.reshape(-1, 28, 28)  # row r is step r, its 28 pixels the features
    results = []
    for seed in seeds:
        torch.manual_seed(seed)
        keep = torch.randperm(x.shape[0])[: x.shape[0] * 9 // 10]  # the validation tenth is left out
        xs, ys = x[keep], y[keep]
        model = gru()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        loss_fn = torch.nn.CrossEntropyLoss()
        for _ in range(epochs):
            model.train()
            perm = torch.randperm(xs.shape[0])
            for i in range(0, xs.shape[0], batch):
                b = perm[i:i + batch]
                opt.zero_grad(set_to_none=True)
                loss_fn(model(xs[b]), ys[b]).backward()
                opt.step()
        model.eval()  # batch norm with its running statistics
        with torch.no_grad():
            accuracy = (model(xt).argmax(1) == yt).float().mean().item()
        results.append(accuracy)
        print(f"RESULT torch gru seed={seed} epochs={epochs} batch={batch} test_accuracy={accuracy:.4f}", flush=True)
    print(f"MEAN torch gru seeds={','.join(map(str, seeds))} epochs={epochs} batch={batch} "
          f"test_accuracy={sum(results) / len(results):.4f}", flush=True)


if __name__ == "__main__":
    main()
