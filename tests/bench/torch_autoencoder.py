"""The peer of the autoencoder bench: 784 -> 32 (ReLU) -> 784 (sigmoid) with binary cross-entropy
against the input itself (Adam, batch 256) in Debian's PyTorch on Fashion-MNIST scaled to [0, 1],
with 1 and 2 threads; the test figure is the MSE of the t10k reconstructions. The sigmoid sits in
the loss (BCEWithLogitsLoss, the same function, computed stably). Run tuned as torch_mlp.py says
(compare.sh does):
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_WAIT_POLICY=passive \\
        LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-openmp /usr/bin/python3 tests/bench/torch_autoencoder.py [EPOCHS] [SAMPLES]"""
import torch

from torch_mlp import run


def autoencoder():
    """Returns logits; the sigmoid is applied by the loss (training) or explicitly (test MSE)."""
    return torch.nn.Sequential(torch.nn.Linear(784, 32), torch.nn.ReLU(), torch.nn.Linear(32, 784))


if __name__ == "__main__":
    run("autoencoder", autoencoder, (784,), batch=256, reconstruction=True)
