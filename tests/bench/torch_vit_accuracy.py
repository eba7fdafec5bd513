"""PyTorch's test accuracy for the small ViT (torch_vit.py) with the settings of `skynnet-cli train
--data train-images-idx3-ubyte.gz --test-data t10k-images-idx3-ubyte.gz --layers
patch:7:64,encoder:4:128,encoder:4:128,encoder:4:128,encoder:4:128,layernorm,seqpool:mean --epochs 10
--batch 128` (torch_accuracy.py says how it trains):
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_WAIT_POLICY=passive \\
        LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-openmp \\
        [SKYNNET_THREADS=1] /usr/bin/python3 tests/bench/torch_vit_accuracy.py [EPOCHS=10] [SEEDS=1 2 3]"""
from torch_accuracy import accuracy_main
from torch_vit import vit

if __name__ == "__main__":
    accuracy_main("vit", vit, (784,), 10)
