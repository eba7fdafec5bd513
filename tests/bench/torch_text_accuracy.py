"""PyTorch's test accuracy for issue 26's two text classifiers, with the settings of
`skynnet-cli train --data TRAIN.csv --test-data TEST.csv --text-column text --target label
--vocab 20000 --max-length 200 --layers embedding:64,seqpool:mean (or embedding:64,lstm:64)
--epochs 10 --batch 64 --optimizer adam --lr 0.003`:
- mean: Embedding(vocab, 64, padding id 0) -> the mean over the non-padding steps (0 for a text
  without tokens) -> dense to the classes (softmax cross-entropy);
- lstm: Embedding(vocab, 64, padding id 0) -> LSTM(64), its last step -> dense to the classes.
The texts are tokenized as Skynnet does (text_tokenizer.py, rule 1), the vocabulary (0 padding, 1
unknown, then by frequency, ties by first appearance) is fitted on the training rows only (the
validation rows are left out), and every text is encoded to its first L tokens, PRE-padded (padding
in front: the LSTM's last step is a real token). 10% of each class of the training file is held out
for validation as the CLI does (stratified, seeded), Adam, the last epoch's weights, the test file
as the test set; SKYNNET_THREADS threads (default 1). One line per seed and net, then the means.
Why 10 epochs at lr 3e-3: on the Austen set (6562 training texts) Adam 1e-3 is far from done after 5
epochs (mean pooling 49% at epoch 5, still 79% and rising at 20: the N(0,1) embedding moves slowly),
and a comparison on so steep a curve is one of speeds, not of results; 1e-2 suits mean pooling (84%
by epoch 4, flat after) but leaves the LSTM at 50%; 3e-3 lets both climb within 10 epochs.
The data: scripts/make_text_dataset.sh DIR writes DIR/austen.train.csv and DIR/austen.test.csv.
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_WAIT_POLICY=passive \\
        LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-openmp [SKYNNET_THREADS=1] /usr/bin/python3 \\
        tests/bench/torch_text_accuracy.py DIR/austen.train.csv DIR/austen.test.csv \\
        [--nets mean,lstm] [--seeds 1,2,3] [--epochs 10] [--batch 64] [--lr 0.003] [--vocab 20000] \\
        [--max-length 200]"""
import argparse
import csv
import os

import torch

from text_tokenizer import PADDING, encode, fit_vocabulary, tokenize


class MeanPool(torch.nn.Module):
    def __init__(self, vocabulary, dim, classes):
        super().__init__()
        self.embedding = torch.nn.Embedding(vocabulary, dim, padding_idx=PADDING)
        self.out = torch.nn.Linear(dim, classes)

    def forward(self, ids):
        mask = (ids != PADDING).float().unsqueeze(2)  # (batch, steps, 1)
        summed = (self.embedding(ids) * mask).sum(1)
        return self.out(summed / mask.sum(1).clamp(min=1))  # all padding: 0 / 1 = 0


class LastLstm(torch.nn.Module):
    def __init__(self, vocabulary, dim, classes, units=64):
        super().__init__()
        self.embedding = torch.nn.Embedding(vocabulary, dim, padding_idx=PADDING)
        self.lstm = torch.nn.LSTM(dim, units, batch_first=True)
        self.out = torch.nn.Linear(units, classes)

    def forward(self, ids):
        _, (last, _) = self.lstm(self.embedding(ids))  # the state after the last step
        return self.out(last[0])


NETS = {"mean": MeanPool, "lstm": LastLstm}


def read(path):
    """The (text, label) rows of a CSV with text and label columns."""
    with open(path, encoding="utf-8", newline="") as f:
        return [(row["text"], row["label"]) for row in csv.DictReader(f)]


def stratified_validation(labels, fraction, generator):
    """Indices of the training rows: each class's rows less round(fraction * its size), at random."""
    keep = []
    for c in sorted(set(labels)):
        rows = torch.tensor([i for i, label in enumerate(labels) if label == c])
        rows = rows[torch.randperm(len(rows), generator=generator)]
        keep += rows[round(fraction * len(rows)):].tolist()
    return sorted(keep)


def train_and_test(net, seed, train, test, classes, args):
    torch.manual_seed(seed)
    labels = [label for _, label in train]
    keep = stratified_validation(labels, 0.1, torch.Generator().manual_seed(seed))
    texts = [train[i][0] for i in keep]
    vocabulary = fit_vocabulary(texts, args.vocab)
    size = 2 + len(vocabulary)
    x = torch.tensor([encode(t, vocabulary, args.max_length) for t in texts])
    y = torch.tensor([classes[train[i][1]] for i in keep])
    xt = torch.tensor([encode(t, vocabulary, args.max_length) for t, _ in test])
    yt = torch.tensor([classes[label] for _, label in test])
    model = NETS[net](size, 64, len(classes))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = torch.nn.CrossEntropyLoss()
    for _ in range(args.epochs):
        model.train()
        perm = torch.randperm(x.shape[0])
        for i in range(0, x.shape[0], args.batch):
            b = perm[i:i + args.batch]
            opt.zero_grad(set_to_none=True)
            loss_fn(model(x[b]), y[b]).backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        accuracy = (model(xt).argmax(1) == yt).float().mean().item()
    return accuracy, size, len(texts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("train")
    parser.add_argument("test")
    parser.add_argument("--nets", default="mean,lstm")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--vocab", type=int, default=20000)
    parser.add_argument("--max-length", type=int, default=200)
    args = parser.parse_args()
    torch.set_num_threads(int(os.environ.get("SKYNNET_THREADS", "1")))
    train, test = read(args.train), read(args.test)
    classes = {label: i for i, label in enumerate(sorted({label for _, label in train}))}
    lengths = [len(tokenize(t)) for t, _ in train]
    print(f"data: {len(train)} training texts ({len(test)} test), {len(classes)} classes, "
          f"{len(set(tok for t, _ in train for tok in tokenize(t)))} distinct training tokens, "
          f"median {sorted(lengths)[len(lengths) // 2]} tokens, "
          f"{sum(n > args.max_length for n in lengths) / len(lengths):.1%} truncated at {args.max_length}", flush=True)
    settings = f"epochs={args.epochs} batch={args.batch} lr={args.lr:g} vocab={args.vocab} max_length={args.max_length}"
    for net in args.nets.split(","):
        results = []
        for seed in [int(s) for s in args.seeds.split(",")]:
            accuracy, size, rows = train_and_test(net, seed, train, test, classes, args)
            results.append(accuracy)
            print(f"RESULT torch text net={net} seed={seed} {settings} vocabulary_ids={size} "
                  f"training_rows={rows} test_accuracy={accuracy:.4f}", flush=True)
        print(f"MEAN torch text net={net} seeds={args.seeds} {settings} "
              f"test_accuracy={sum(results) / len(results):.4f}", flush=True)


if __name__ == "__main__":
    main()
