#!/usr/bin/env bash
# A real labelled text set from a Debian package, for the text classifiers of issue 26: the
# passages (paragraphs) of Jane Austen's six novels, each labelled with its novel, from
# r-cran-janeaustenr (Debian 12: 1.0.0-1, a 1.6 MB .deb). Nothing is installed: the package is
# fetched with `apt-get download` into a temporary folder, unpacked with `dpkg-deb -x`, and its R
# data (a lazy-load database of six character vectors, one line of the book each) is read by a
# small R-serialization reader below, so R itself is not needed.
#   scripts/make_text_dataset.sh OUTPUT_DIR [--folders]
# Writes into OUTPUT_DIR:
#   austen.csv        every passage: text,label,split (RFC 4180: CRLF lines, quoted when needed)
#   austen.train.csv  text,label of the training passages (80%)
#   austen.test.csv   text,label of the test passages (20%)
#   austen/train/LABEL/*.txt, austen/test/LABEL/*.txt   with --folders, one UTF-8 file a passage
# The labels: emma, mansfield_park, northanger_abbey, persuasion, pride_and_prejudice,
# sense_and_sensibility. A passage is a paragraph (a run of non-blank lines joined with single
# spaces) of at least 10 words with a lower-case letter (chapter headings are dropped). The split
# is fixed: within each novel, every fifth passage (the 5th, 10th, ...) is a test passage. The rows
# of each file are in a fixed pseudo-random order (by a hash of novel and passage number), so the
# classes are mixed whatever reads a prefix. The same package version always gives the same bytes.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ] || { [ $# -eq 2 ] && [ "$2" != "--folders" ]; }; then
  echo "usage: $0 OUTPUT_DIR [--folders]" >&2
  exit 2
fi
out=$1
folders=${2:-}
package=r-cran-janeaustenr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# apt's download sandbox user must be able to write into the folder.
chmod 755 "$tmp"
if ! (cd "$tmp" && apt-get download -qq "$package" 2>"$tmp/apt.log"); then
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq
    (cd "$tmp" && apt-get download -qq "$package")
  else
    cat "$tmp/apt.log" >&2
    echo "$0: could not download $package (run apt-get update as root first)" >&2
    exit 1
  fi
fi
deb=$(ls "$tmp"/"$package"_*.deb)
dpkg-deb -x "$deb" "$tmp/root"
mkdir -p "$out"
python3 - "$tmp/root/usr/lib/R/site-library/janeaustenr/data/Rdata" "$out" "$folders" "$(basename "$deb")" <<'EOF'
import csv, gzip, hashlib, os, re, struct, sys, zlib

base, out, folders, deb = sys.argv[1], sys.argv[2], sys.argv[3] == "--folders", sys.argv[4]
LABELS = {"emma": "emma", "mansfieldpark": "mansfield_park", "northangerabbey": "northanger_abbey",
          "persuasion": "persuasion", "prideprejudice": "pride_and_prejudice",
          "sensesensibility": "sense_and_sensibility"}


class Vector(list):
    """An R vector; names holds its names attribute (None without one)."""
    names = None


class Unserializer:
    """R's XDR serialization (versions 2 and 3), only the types a data package of strings holds."""

    def __init__(self, data):
        self.data, self.at, self.refs = data, 0, []

    def int(self):
        self.at += 4
        return struct.unpack(">i", self.data[self.at - 4:self.at])[0]

    def bytes(self, n):
        self.at += n
        return self.data[self.at - n:self.at]

    def read(self):
        if self.bytes(2) != b"X\n":
            raise SystemExit("not an XDR R serialization")
        version = self.int()
        self.int(), self.int()  # writer's and minimal reader's R versions
        if version == 3:
            self.bytes(self.int())  # native encoding name
        return self.item()

    def item(self):
        flags = self.int()
        kind, has_attr, has_tag = flags & 0xFF, flags & 512, flags & 1024
        if kind in (254, 253, 252, 251, 242):  # NULL, global/empty env, unbound, missing
            return None
        if kind == 255:  # reference to an earlier symbol
            index = flags >> 8 or self.int()
            return self.refs[index - 1]
        if kind == 1:  # symbol
            symbol = ("symbol", self.item())
            self.refs.append(symbol)
            return symbol
        if kind == 9:  # one string (UTF-8, Latin-1 when so flagged, or ASCII)
            n = self.int()
            return None if n == -1 else self.bytes(n).decode("latin-1" if flags & (1 << 2 << 12) else "utf-8")
        if kind == 2:  # pairlist: (tag, value) pairs
            if has_attr:
                self.item()
            tag = self.item() if has_tag else None
            head, tail = self.item(), self.item()
            return [(tag[1] if tag else None, head)] + (tail or [])
        n = self.int()
        if kind in (16, 19):  # character vector, list
            value = [self.item() for _ in range(n)]
        elif kind in (10, 13):  # logical, integer
            value = list(struct.unpack(">%di" % n, self.bytes(4 * n)))
        elif kind == 14:  # double
            value = list(struct.unpack(">%dd" % n, self.bytes(8 * n)))
        else:
            raise SystemExit(f"unsupported R object type {kind}")
        value = Vector(value)
        if has_attr:  # of the attributes (names, class, ...) only the names are kept
            value.names = dict(self.item()).get("names")
        return value


def variables(base):
    """The (name, object) pairs of an R lazy-load database: BASE.rdx is the gzipped index, a list
    (variables = named offset/length pairs, references, compressed); BASE.rdb holds the objects,
    each 4 bytes of length and then zlib."""
    with open(base + ".rdx", "rb") as f:
        index = Unserializer(gzip.decompress(f.read())).read()
    offsets = index[0]
    with open(base + ".rdb", "rb") as f:
        rdb = f.read()
    for (offset, length), name in zip(offsets, offsets.names):
        yield name, Unserializer(zlib.decompress(rdb[offset + 4:offset + length])).read()


def passages(lines):
    """Paragraphs of at least 10 words with a lower-case letter, white space runs made one space."""
    found, current = [], []
    for line in list(lines) + [""]:
        if line and line.strip():
            current.append(line.strip())
        elif current:
            text = " ".join(" ".join(current).split())
            if len(text.split()) >= 10 and re.search("[a-z]", text):
                found.append(text)
            current = []
    return found


rows = []  # (order key, text, label, split, number)
for name, lines in variables(base):
    label = LABELS[name]
    for i, text in enumerate(passages(lines)):
        split = "test" if i % 5 == 4 else "train"
        key = hashlib.sha256(f"{label}:{i}".encode()).hexdigest()
        rows.append((key, text, label, split, i))
rows.sort()


def write(path, chosen, with_split):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\r\n")  # RFC 4180: quotes only where needed, "" inside
        w.writerow(["text", "label", "split"] if with_split else ["text", "label"])
        for _, text, label, split, _ in chosen:
            w.writerow([text, label, split] if with_split else [text, label])


write(os.path.join(out, "austen.csv"), rows, True)
for part in ("train", "test"):
    chosen = [r for r in rows if r[3] == part]
    write(os.path.join(out, f"austen.{part}.csv"), chosen, False)
    if folders:
        for _, text, label, _, i in chosen:
            folder = os.path.join(out, "austen", part, label)
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"{i + 1:05d}.txt"), "w", encoding="utf-8") as f:
                f.write(text + "\n")
counts = {}
for _, _, label, split, _ in rows:
    counts[(split, label)] = counts.get((split, label), 0) + 1
print(f"{deb}: {len(rows)} passages, {sum(r[3] == 'train' for r in rows)} train, "
      f"{sum(r[3] == 'test' for r in rows)} test, written to {out}")
for label in sorted(LABELS.values()):
    print(f"  {label}: {counts.get(('train', label), 0)} train, {counts.get(('test', label), 0)} test")
EOF
