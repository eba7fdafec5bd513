"""The peer of the GRU bench, the reference's GRU example: Fashion-MNIST read as 28 steps (rows) of
28 features, GRU 64 (last step) -> BatchNorm1d(64) -> dense 10 (softmax cross-entropy, Adam, batch
128) in Debian's PyTorch, with 1 and 2 threads; run tuned as torch_mlp.py says (compare.sh does):
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_WAIT_POLICY=passive \\
        LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-openmp /usr/bin/python3 tests/bench/torch_gru.py [EPOCHS] [SAMPLES]
Measure it on a quiet machine: each of the 28 steps is a few small products, each a parallel region
whose second thread must be scheduled, so on a shared machine the 2-thread figure collapses (load
about 8 on 2 cores, the peer at nice 19: 50-271 samples/s on 2 threads against 2700-3700 on 1),
and a ratio against it says nothing."""
import torch

from torch_mlp import run


class Gru(torch.nn.Module):
    """GRU over the rows, its last step's state, batch normalisation, then the dense output layer."""

    def __init__(self, features=28, units=64, classes=10):
        super().__init__()
        self.gru = torch.nn.GRU(features, units, batch_first=True)
        self.bn = torch.nn.BatchNorm1d(units)
        self.out = torch.nn.Linear(units, classes)

    def forward(self, x):
        _, last = self.gru(x)  # last: (1, batch, units), the state after the last step
        return self.out(self.bn(last[0]))


def gru():
    return Gru()


if __name__ == "__main__":
    run("gru", gru, (28, 28))
