#!/usr/bin/env bash
# Skynnet against Debian's PyTorch on the same networks and data, in one run (these machines are
# noisy: compare within a run, never across runs), with the ratios of their samples/s.
#   tests/bench/compare.sh [BUILD_DIR=build] [EPOCHS=3] [SAMPLES=60000] [NETS=mlp,cnn]
# NETS: a comma list of mlp, cnn, gru (GRU 64 over the rows, batch norm, dense 10, batch 128) and
# autoencoder (784-32-784, batch 256) and vit (7x7 patches, 4 encoder blocks of 64, batch 128); each
# is skynnet-bench's network of that name against
# tests/bench/torch_NET.py.
# The peer runs tuned, or the ratio means nothing: on Debian's reference BLAS PyTorch is about 20x
# slower. So Debian's OpenBLAS (OpenMP build) must be installed, and is installed here when we are
# root (otherwise the script refuses); the peer alone runs with OMP_WAIT_POLICY=passive, with
# OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset (presets some machines carry that slow a current
# OpenBLAS), and with the OpenMP build's folder first on its library path whatever the
# alternatives system points libblas.so.3 at.
set -euo pipefail
build=${1:-build}
epochs=${2:-3}
samples=${3:-60000}
nets=${4:-mlp,cnn}
here=$(cd "$(dirname "$0")" && pwd)
for net in ${nets//,/ }; do
  case "$net" in
    mlp | cnn | gru | autoencoder | vit) ;;
    *) echo "compare.sh: unknown network '$net' (mlp, cnn, gru, autoencoder or vit)" >&2; exit 2 ;;
  esac
done
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)

missing=()
for p in libopenblas0-openmp python3-torch; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "compare.sh: the tuned peer needs ${missing[*]}: apt-get install them (as root), then run again" >&2
    exit 1
  fi
  echo "Installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

skynnet_out=$(mktemp) torch_out=$(mktemp)
trap 'rm -f "$skynnet_out" "$torch_out"' EXIT
"$build/tests/bench/skynnet-bench" "$epochs" "$samples" "$nets" | tee "$skynnet_out"
for net in ${nets//,/ }; do
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_WAIT_POLICY=passive \
      LD_LIBRARY_PATH="/usr/lib/$arch/openblas-openmp${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      /usr/bin/python3 "$here/torch_$net.py" "$epochs" "$samples" | tee -a "$torch_out"
done
grep -q "openblas-openmp" "$torch_out" || { echo "compare.sh: the peer did not run on OpenBLAS" >&2; exit 1; }

field() { { grep "RESULT $1 net=$2 threads=$3 " "$4" || true; } | sed -n "s/.* $5=\([0-9.]*\).*/\1/p"; }
for net in ${nets//,/ }; do
  for t in 1 2; do
    s=$(field skynnet "$net" "$t" "$skynnet_out" best_samples_per_second)
    p=$(field torch "$net" "$t" "$torch_out" best_samples_per_second)
    share=$(field skynnet "$net" "$t" "$skynnet_out" peak_share)
    if [ -z "$s" ] || [ -z "$p" ]; then
      echo "net=$net threads=$t: no figure (skynnet '${s}', torch '${p}')"
      continue
    fi
    awk -v n="$net" -v t="$t" -v s="$s" -v p="$p" -v f="$share" \
      'BEGIN { printf "net=%s threads=%s skynnet=%d torch=%d ratio=%.2f skynnet_peak_share=%s\n", n, t, s, p, s / p, f }'
  done
done
