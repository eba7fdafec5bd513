#!/usr/bin/env bash
# The MPI backend's overhead against the thread backend on this machine (issue 11's target: 5% or
# less): Fashion-MNIST class groups with the baseline, the same options both ways,
#   threads: skynnet-cli train ... --threads C                       (C: this machine's cores)
#   mpi:     mpirun --oversubscribe -np C+1 --bind-to none skynnet-cli train ... --backend mpi   (rank 0 + a worker per core)
# run as pairs, the two backends alternately (which one goes first alternates too), so that a load
# that comes and goes hits both alike. Reads the wall times from each run's --report: the split's
# training (train_seconds) and the whole run (wall_seconds, from the command's start to the report);
# adds the wall time of the whole command as the shell saw it (mpirun's start-up included), the
# system CPU time of all its processes and the largest peak RSS of any of them (/usr/bin/time), the
# peak RSS of the process that reports (rank 0 under MPI), and the bytes each MPI rank sent.
# Prints each run, then per N the median over the pairs of MPI / threads.
#   tests/bench/mpi_overhead.sh [BUILD_DIR=build] [REPEATS=3] [N_LIST=3,6] [EPOCHS=5]
# Benchmarks on a shared machine: give `uptime` with the figures (printed at the start and end).
set -euo pipefail
build=${1:-build}
repeats=${2:-3}
nlist=${3:-3,6}
epochs=${4:-5}
cli="$(cd "$build" && pwd)/app/cli/skynnet-cli"
data=/usr/share/datasets/fashion-mnist
[ -x "$cli" ] || { echo "mpi_overhead.sh: no $cli (build it first)" >&2; exit 1; }
[ -f "$data/train-images-idx3-ubyte.gz" ] || { echo "mpi_overhead.sh: Fashion-MNIST is not in $data (dataset-fashion-mnist)" >&2; exit 1; }
command -v mpirun >/dev/null || { echo "mpi_overhead.sh: mpirun is not installed (openmpi-bin)" >&2; exit 1; }
command -v jq >/dev/null || { echo "mpi_overhead.sh: needs jq" >&2; exit 1; }
# Without the host name in /etc/hosts MPI_Init stalls about 10 s, which would be all we measured.
getent hosts "$(hostname)" >/dev/null || { echo "mpi_overhead.sh: $(hostname) is not in /etc/hosts (add: 127.0.1.1 $(hostname))" >&2; exit 1; }

cores=$(nproc)
# One rank more than slots: --oversubscribe (rank 0 sleeps between messages).
mpirun_args=(--oversubscribe -np $((cores + 1)) --bind-to none)
[ "$(id -u)" -eq 0 ] && mpirun_args=(--allow-run-as-root "${mpirun_args[@]}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run: BACKEND N PAIR. Prints a RUN line and keeps its figures in $work/BACKEND-N-PAIR.
run() {
  local backend=$1 n=$2 pair=$3 report="$work/$1-$2-$3.json" timed="$work/$1-$2-$3.time"
  local train=(train --data "$data/train-images-idx3-ubyte.gz" --test-data "$data/t10k-images-idx3-ubyte.gz"
               --layers dense:512:relu,dense:256:relu --epochs "$epochs" --batch 128 --seed 1
               --submodels "$n" --strategy class-groups --baseline --quiet --report "$report")
  local cmd
  if [ "$backend" = mpi ]; then cmd=(mpirun "${mpirun_args[@]}" "$cli" "${train[@]}" --backend mpi)
  else cmd=("$cli" "${train[@]}" --threads "$cores"); fi
  local t0 t1
  t0=$(date +%s.%N)
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/time -f '%S %M' -o "$timed" "${cmd[@]}" >"$work/out" 2>&1 ||
    { cat "$work/out" >&2; echo "mpi_overhead.sh: the $backend run failed: ${cmd[*]}" >&2; exit 1; }
  t1=$(date +%s.%N)
  local sys rss
  read -r sys rss <"$timed"
  local split whole peak bytes
  split=$(jq -r .train_seconds "$report")
  peak=$(jq -r .peak_memory_bytes "$report")
  whole=$(jq -r .wall_seconds "$report")
  bytes=$(jq -r '(.backend.bytes_sent_per_rank // []) | map(tostring) | join(",")' "$report")
  local command_wall
  command_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  echo "$split $whole $command_wall $sys $rss $peak" >"$work/$backend-$n-$pair"
  printf 'RUN backend=%s N=%s pair=%s split_train=%.3fs whole_run=%.3fs command=%ss sys=%ss max_rss=%dMB rank0_peak=%dMB%s\n' \
    "$backend" "$n" "$pair" "$split" "$whole" "$command_wall" "$sys" $((rss / 1024)) $((peak >> 20)) \
    "${bytes:+ bytes_sent_per_rank=$bytes}"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "mpi_overhead: $cores cores, $repeats pairs per N, N in {$nlist}, $epochs epochs; load: $(uptime)"
for n in ${nlist//,/ }; do
  for ((p = 1; p <= repeats; ++p)); do
    if ((p % 2)); then run threads "$n" "$p"; run mpi "$n" "$p"; else run mpi "$n" "$p"; run threads "$n" "$p"; fi
  done
done
for n in ${nlist//,/ }; do
  # Per pair: MPI's figure / the thread backend's, for split training, whole run, command, sys time.
  for field in 1 2 3 4 5 6; do
    for ((p = 1; p <= repeats; ++p)); do
      awk -v f="$field" 'NR == FNR { t = $f; next } { printf "%.4f\n", (t > 0 ? $f / t : 0) }' \
        "$work/threads-$n-$p" "$work/mpi-$n-$p"
    done | median >"$work/ratio-$n-$field"
  done
  printf 'RESULT N=%s mpi/threads median of %d pairs: split_train=%.3f whole_run=%.3f command=%.3f sys=%.2f max_rss=%.2f rank0_peak=%.2f\n' \
    "$n" "$repeats" "$(cat "$work/ratio-$n-1")" "$(cat "$work/ratio-$n-2")" "$(cat "$work/ratio-$n-3")" \
    "$(cat "$work/ratio-$n-4")" "$(cat "$work/ratio-$n-5")" "$(cat "$work/ratio-$n-6")"
done
echo "mpi_overhead: done; load: $(uptime)"
