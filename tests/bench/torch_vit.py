"""The peer of the ViT bench, the issue's small Vision Transformer: Fashion-MNIST cut into 7x7
patches (16 tokens), each projected to 64 values (a Conv2d of kernel and stride 7) plus learned
positions, 4 blocks of nn.TransformerEncoderLayer(64, 4 heads, MLP 128, GELU, norm_first=True,
dropout 0), a LayerNorm, the mean of the tokens and a dense 10 (softmax cross-entropy, Adam, batch
128) in Debian's PyTorch, with 1 and 2 threads; the same network as `skynnet-cli train --layers
patch:7:64,encoder:4:128,encoder:4:128,encoder:4:128,encoder:4:128,layernorm,seqpool:mean`. Run
tuned as torch_mlp.py says (compare.sh does):
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_WAIT_POLICY=passive \\
        LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-openmp /usr/bin/python3 tests/bench/torch_vit.py [EPOCHS] [SAMPLES]"""
import torch

from torch_mlp import run


class Vit(torch.nn.Module):
    """Patches -> tokens with positions -> pre-norm encoder blocks -> LayerNorm -> mean -> dense."""

    def __init__(self, patch=7, dim=64, heads=4, mlp=128, blocks=4, classes=10, side=28):
        super().__init__()
        self.patch = torch.nn.Conv2d(1, dim, patch, stride=patch)
        tokens = (side // patch) ** 2
        self.positions = torch.nn.Parameter(torch.randn(1, tokens, dim) * 0.02)
        layer = torch.nn.TransformerEncoderLayer(dim, heads, mlp, dropout=0.0, activation="gelu",
                                                 batch_first=True, norm_first=True)
        self.blocks = torch.nn.TransformerEncoder(layer, blocks, enable_nested_tensor=False)
        self.norm = torch.nn.LayerNorm(dim)
        self.out = torch.nn.Linear(dim, classes)

    def forward(self, x):
        x = x.reshape(-1, 1, 28, 28)
        t = self.patch(x).flatten(2).transpose(1, 2) + self.positions  # (batch, tokens, dim)
        return self.out(self.norm(self.blocks(t)).mean(1))


def vit():
    return Vit()


if __name__ == "__main__":
    run("vit", vit, (784,))
