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
from torch_accuracy import accuracy_main
from torch_gru import gru

if __name__ == "__main__":
    accuracy_main("gru", gru, (28, 28), 5)  # row r is step r, its 28 pixels the features
