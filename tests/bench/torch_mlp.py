"""The peer: the same MLP 784-512-256-10 (ReLU, softmax cross-entropy, Adam, batch 128) in
Debian's PyTorch, on random data of Fashion-MNIST's size. Prints samples/second per thread count.
Run with /usr/bin/python3 and OPENBLAS_CORETYPE unset (see README, Benchmarks)."""
import sys
import time

import torch

samples = int(sys.argv[1]) if len(sys.argv) > 1 else 60000
epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
torch.manual_seed(7)
x = torch.rand(samples, 784)
y = torch.randint(0, 10, (samples,))
for threads in (1, 2):
    torch.set_num_threads(threads)
    model = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 256),
                                torch.nn.ReLU(), torch.nn.Linear(256, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()
    best = 0.0
    for epoch in range(epochs):
        perm = torch.randperm(samples)
        start = time.perf_counter()
        for i in range(0, samples, 128):
            idx = perm[i:i + 128]
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(model(x[idx]), y[idx])
            loss.backward()
            opt.step()
        rate = samples / (time.perf_counter() - start)
        best = max(best, rate)
        print(f"torch threads={threads} epoch={epoch + 1} samples/s={rate:.0f}", flush=True)
    print(f"RESULT torch threads={threads} best_samples_per_second={best:.0f}", flush=True)
