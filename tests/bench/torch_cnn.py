"""The peer of the CNN bench: conv32 3x3-relu-maxpool2-conv64 3x3-relu-maxpool2-dense128-relu-dense10
(softmax cross-entropy, Adam, batch 128) in Debian's PyTorch on Fashion-MNIST, with 1 and 2
threads; run tuned as torch_mlp.py says (compare.sh does):
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_WAIT_POLICY=passive \\
        LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-openmp /usr/bin/python3 tests/bench/torch_cnn.py [EPOCHS] [SAMPLES]"""
import torch

from torch_mlp import run


def cnn():
    return torch.nn.Sequential(torch.nn.Conv2d(1, 32, 3), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                               torch.nn.Conv2d(32, 64, 3), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
                               torch.nn.Linear(64 * 5 * 5, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))


if __name__ == "__main__":
    run("cnn", cnn, (1, 28, 28))
