"""PyTorch's test accuracy for the issue's CNN with the settings of `skynnet-cli train --epochs 5
--batch B`: 10% of the training images held out for validation (the CLI's default), Adam 1e-3 (its
default), batch B (128 as in the issue's benchmark unless SKYNNET_BATCH says otherwise; the CLI's
default is 32), pixels scaled to [0, 1], the t10k files as the test set. One line per seed:
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_WAIT_POLICY=passive \\
        LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-openmp [SKYNNET_BATCH=32] /usr/bin/python3 \\
        tests/bench/torch_cnn_accuracy.py [EPOCHS] [SEEDS...]"""
import os
import sys

import torch

from torch_cnn import cnn
from torch_mlp import load


def main():
    epochs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    seeds = [int(s) for s in sys.argv[2:]] or [1]
    batch = int(os.environ.get("SKYNNET_BATCH", "128"))
    torch.set_num_threads(2)
    x, y, xt, yt = load(60000)
    x, xt = x.reshape(-1, 1, 28, 28), xt.reshape(-1, 1, 28, 28)
    for seed in seeds:
        torch.manual_seed(seed)
        keep = torch.randperm(x.shape[0])[: x.shape[0] * 9 // 10]  # the validation tenth is left out
        xs, ys = x[keep], y[keep]
        model = cnn()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        loss_fn = torch.nn.CrossEntropyLoss()
        for _ in range(epochs):
            perm = torch.randperm(xs.shape[0])
            for i in range(0, xs.shape[0], batch):
                b = perm[i:i + batch]
                opt.zero_grad(set_to_none=True)
                loss_fn(model(xs[b]), ys[b]).backward()
                opt.step()
        with torch.no_grad():
            accuracy = (model(xt).argmax(1) == yt).float().mean().item()
        print(f"RESULT torch cnn seed={seed} epochs={epochs} batch={batch} test_accuracy={accuracy:.4f}", flush=True)


if __name__ == "__main__":
    main()
