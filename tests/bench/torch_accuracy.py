"""PyTorch's test accuracy for one of the bench networks trained as `skynnet-cli train` trains it on
Fashion-MNIST: 10% of the training images held out for validation (the CLI's default), Adam 1e-3,
batch 128 unless SKYNNET_BATCH says otherwise, pixels scaled to [0, 1], the t10k files as the test
set, the last epoch's weights; SKYNNET_THREADS threads (default 1). One RESULT line per seed, then
the MEAN. Scripts call accuracy_main(name, make_model, shape, default_epochs)."""
import os
import sys

import torch

from torch_mlp import load


def accuracy_main(name, make_model, shape, default_epochs):
    epochs = int(sys.argv[1]) if len(sys.argv) > 1 else default_epochs
    seeds = [int(s) for s in sys.argv[2:]] or [1, 2, 3]
    batch = int(os.environ.get("SKYNNET_BATCH", "128"))
    torch.set_num_threads(int(os.environ.get("SKYNNET_THREADS", "1")))
    x, y, xt, yt = load(60000)
    x, xt = x.reshape(-1, *shape), xt.reshape(-1, *shape)
    results = []
    for seed in seeds:
        torch.manual_seed(seed)
        keep = torch.randperm(x.shape[0])[: x.shape[0] * 9 // 10]  # the validation tenth is left out
        xs, ys = x[keep], y[keep]
        model = make_model()
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
        model.eval()
        with torch.no_grad():
            accuracy = (model(xt).argmax(1) == yt).float().mean().item()
        results.append(accuracy)
        print(f"RESULT torch {name} seed={seed} epochs={epochs} batch={batch} test_accuracy={accuracy:.4f}",
              flush=True)
    print(f"MEAN torch {name} seeds={','.join(map(str, seeds))} epochs={epochs} batch={batch} "
          f"test_accuracy={sum(results) / len(results):.4f}", flush=True)
