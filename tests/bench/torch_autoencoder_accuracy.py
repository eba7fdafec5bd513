"""PyTorch's test MSE for the autoencoder (784 -> 32 ReLU -> 784 sigmoid, binary cross-entropy
against the input) with the settings of `skynnet-cli train --data train-images-idx3-ubyte.gz
--test-data t10k-images-idx3-ubyte.gz --task reconstruction --layers dense:32:relu --epochs 10
--batch 256`: 10% of the training images held out for validation (the CLI's default), Adam 1e-3 (its
default), batch 256 (the bench's) unless SKYNNET_BATCH says otherwise, pixels scaled to [0, 1] (the
CLI's default pixel-range scaling), the t10k images as the test set, the last epoch's weights;
SKYNNET_THREADS threads (default 1: on a shared 2-core machine PyTorch's 2-thread barriers stall,
and the figures hardly depend on it). test_mse is the mean over all 784 output values of every test
image of (reconstruction - input)^2, and test_r2 is R^2 as engine/train/metrics.cpp computes it:
each output column's 1 - SSE / (sum of squares about the column's test mean), averaged over the
columns (a column that is constant in the test set counts 1 when reconstructed exactly, else 0; the
corner pixels, nearly always 0, make it very negative), and test_r2_pooled is 1 - SSE / (the sum of
squares about each column's test mean) summed over all output values at once. One line per seed,
then the means:
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_WAIT_POLICY=passive \\
        LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-openmp \\
        [SKYNNET_THREADS=1] [SKYNNET_BATCH=256] /usr/bin/python3 \\
        tests/bench/torch_autoencoder_accuracy.py [EPOCHS=10] [SEEDS=1 2 3]"""
import os
import sys

import torch

from torch_autoencoder import autoencoder
from torch_mlp import load


def main():
    epochs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    seeds = [int(s) for s in sys.argv[2:]] or [1, 2, 3]
    batch = int(os.environ.get("SKYNNET_BATCH", "256"))
    threads = int(os.environ.get("SKYNNET_THREADS", "1"))
    torch.set_num_threads(threads)
    x, _, xt, _ = load(60000)
    mses, r2s, pooleds = [], [], []
    for seed in seeds:
        torch.manual_seed(seed)
        keep = torch.randperm(x.shape[0])[: x.shape[0] * 9 // 10]  # the validation tenth is left out
        xs = x[keep]
        model = autoencoder()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        loss_fn = torch.nn.BCEWithLogitsLoss()  # sigmoid output + binary cross-entropy
        for _ in range(epochs):
            perm = torch.randperm(xs.shape[0])
            for i in range(0, xs.shape[0], batch):
                b = xs[perm[i:i + batch]]
                opt.zero_grad(set_to_none=True)
                loss_fn(model(b), b).backward()
                opt.step()
        with torch.no_grad():
            out = torch.sigmoid(model(xt)).double()
            target = xt.double()
            residual = ((out - target) ** 2).sum(0)
            total = ((target - target.mean(0)) ** 2).sum(0)
            r2_columns = torch.where(total > 0, 1 - residual / total.clamp(min=1e-300),
                                     (residual == 0).double())
        mse, r2 = residual.sum().item() / target.numel(), r2_columns.mean().item()
        pooled = 1 - residual.sum().item() / total.sum().item()
        mses.append(mse)
        r2s.append(r2)
        pooleds.append(pooled)
        print(f"RESULT torch autoencoder seed={seed} epochs={epochs} batch={batch} test_mse={mse:.6f} test_r2={r2:.4f} "
              f"test_r2_pooled={pooled:.4f}",
              flush=True)
    print(f"MEAN torch autoencoder seeds={','.join(map(str, seeds))} epochs={epochs} batch={batch} "
          f"test_mse={sum(mses) / len(mses):.6f} test_r2={sum(r2s) / len(r2s):.4f} test_r2_pooled={sum(pooleds) / len(pooleds):.4f}", flush=True)


if __name__ == "__main__":
    main()
