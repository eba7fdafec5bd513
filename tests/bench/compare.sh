#!/usr/bin/env bash
# Skynnet against Debian's PyTorch on the same MLP and data, in one run (these machines are noisy:
# compare within a run, never across runs). Usage: tests/bench/compare.sh [BUILD_DIR] [EPOCHS]
set -euo pipefail
build=${1:-build}
epochs=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
"$build/tests/bench/skynnet-bench" "$epochs" | tee /tmp/skynnet-bench.txt
# OpenBLAS presets that slow PyTorch on this machine are unset for the peer alone.
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 "$here/torch_mlp.py" "$epochs" | tee /tmp/torch-bench.txt
for t in 1 2; do
  s=$(grep "RESULT skynnet threads=$t " /tmp/skynnet-bench.txt | sed 's/.*best_samples_per_second=\([0-9]*\).*/\1/')
  p=$(grep "RESULT torch threads=$t " /tmp/torch-bench.txt | sed 's/.*best_samples_per_second=\([0-9]*\).*/\1/')
  awk -v t="$t" -v s="$s" -v p="$p" 'BEGIN { printf "threads=%s skynnet=%d torch=%d ratio=%.2f\n", t, s, p, s / p }'
done
