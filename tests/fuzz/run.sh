#!/usr/bin/env bash
# Builds the libFuzzer targets with ASan+UBSan (clang) in build-fuzz/ and fuzzes each for SECONDS,
# two at a time, each on a fresh working copy of its seed corpus. Prints per target the
# executions, the edges covered (libFuzzer's "cov:") and whether it crashed; exits 1 when any did.
# Usage: tests/fuzz/run.sh SECONDS [target ...]   (default: every target)
# SKYNNET_FUZZ_TIMEOUT: seconds one input may take before it counts as a hang (default 10; give
# more at `nice -n 19` on a busy machine, where a target can get no CPU for a minute).
# Crash artefacts, logs and the working corpora stay in build-fuzz/fuzz-runs/<target>/. A crash is
# minimised with `build-fuzz/tests/fuzz/fuzz_<target> -minimize_crash=1 -runs=10000 <artefact>`
# and kept under tests/fuzz/regressions/<target>/, where ctest replays it in every build.
set -euo pipefail

if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ ]]; then
    echo "usage: $0 SECONDS [target ...]" >&2
    exit 2
fi
seconds=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${SKYNNET_FUZZ_BUILD:-$root/build-fuzz}
runs=$build/fuzz-runs
all=(csv idx idx_gzip json model combined_model project image text vocabulary checkpoint)
targets=("${@:-${all[@]}}")

# Longest input per target: a few times the largest seed, so inputs stay fast to run.
max_len() {
    case $1 in
        csv | json | text | vocabulary) echo 4096 ;;
        image) echo 8192 ;;
        idx | idx_gzip) echo 8192 ;;
        model | combined_model | checkpoint) echo 16384 ;;
        project) echo 32768 ;;
        *) echo "unknown target '$1' (targets: ${all[*]})" >&2; exit 2 ;;
    esac
}
for t in "${targets[@]}"; do max_len "$t" >/dev/null; done

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# -O1 without NDEBUG: Eigen's and the standard library's assertions stay on.
cmake -S "$root" -B "$build" -G Ninja -DSKYNNET_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DSKYNNET_WITH_ONNX=OFF -DSKYNNET_BUILD_UI=OFF -DSKYNNET_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
nice -n 5 cmake --build "$build" -j2 --target "${targets[@]/#/fuzz_}"

# The targets write every input to a file: in memory when /dev/shm is there (10 times faster).
scratch=$(mktemp -d "$([[ -d /dev/shm ]] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/skynnet-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

run_one() {
    local t=$1 dir=$runs/$1
    rm -rf "$dir"
    mkdir -p "$dir/corpus" "$dir/crashes"
    cp "$here/corpus/$t"/* "$dir/corpus/"
    local status=0
    # One OpenMP thread: two targets share the two cores. -timeout reports a hang, -rss_limit_mb
    # (also the limit of one allocation) a memory bomb, both as a crash.
    OMP_NUM_THREADS=1 TMPDIR=$scratch nice -n 10 "$build/tests/fuzz/fuzz_$t" \
        -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout="${SKYNNET_FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 \
        -artifact_prefix="$dir/crashes/" -print_final_stats=1 "$dir/corpus" >"$dir/log" 2>&1 || status=$?
    echo "$status" >"$dir/status"
}

for t in "${targets[@]}"; do
    while (($(jobs -rp | wc -l) >= 2)); do wait -n || true; done
    echo "fuzzing $t for ${seconds}s"
    run_one "$t" &
done
wait

failed=0
printf '%-16s %12s %8s %8s  %s\n' target executions cov corpus result
for t in "${targets[@]}"; do
    dir=$runs/$t
    execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$dir/log" | grep -o '[0-9]*$' || true)
    cov=$(grep -o 'cov: [0-9]*' "$dir/log" | tail -1 | grep -o '[0-9]*$' || true)
    corpus=$(find "$dir/corpus" -type f | wc -l)
    # slow-unit-* files are inputs that took over 10 s of wall time without hitting -timeout (on
    # a loaded machine, often a stall): kept to look at, not a failure.
    crashes=$(find "$dir/crashes" -type f ! -name 'slow-unit-*' | wc -l)
    slow=$(find "$dir/crashes" -type f -name 'slow-unit-*' | wc -l)
    if [[ $(cat "$dir/status") == 0 && $crashes == 0 ]]; then
        result=ok
        ((slow == 0)) || result="ok ($slow slow unit(s) in $dir/crashes)"
    else
        result="CRASHED (exit $(cat "$dir/status"), $crashes artefact(s) in $dir/crashes, log $dir/log)"
        failed=1
    fi
    printf '%-16s %12s %8s %8s  %s\n' "$t" "${execs:-?}" "${cov:-?}" "$corpus" "$result"
done
exit "$failed"
