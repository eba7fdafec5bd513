#!/usr/bin/env bash
# Builds everything (engine, ui, apps, tests) with a sanitizer and runs the whole ctest suite,
# GUI tests offscreen. Exits non-zero on any build error, test failure or sanitizer report.
#   scripts/sanitize.sh address   ASan + UBSan (leaks included) in build-asan/
#   scripts/sanitize.sh thread    TSan in build-tsan/
# Extra arguments go to ctest (e.g. -R tst_split).
#
# TSan and OpenMP: Debian's libgomp is not built with TSan, so TSan cannot see the futexes its
# teams synchronise on and would report every kernel's parallel loop as a race. The thread run
# therefore sets OMP_THREAD_LIMIT=1: every OpenMP region (matrix kernels, Eigen's products, the
# batch split's slices) runs on the thread that opened it, and no libgomp thread ever starts.
# The project's own concurrency is untouched by that, because none of it is OpenMP: submodels
# still train on std::threads (split/thread_backend, worker_pool, parallel_trainer), the cancel
# token and pause are shared with them, their progress events still cross a mutex to the Qt
# adapter (ui/core/run_events, training_session) and the GUI tests still run sessions on worker
# threads while the main thread reads, pauses and cancels them. Kernel thread budgets are still
# set per worker (setKernelThreads); only the team size OpenMP grants is capped, and
# parallelRegion still runs every slot (a batch split's slices run in turn on the one thread).
# Qt and GLib are not instrumented either: see scripts/sanitizers/tsan.supp for how their own
# hand-overs are kept out of the reports without hiding any access compiled from our sources.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

mode=${1:-}
case "$mode" in
  address)
    dir=build-asan
    flags="-fsanitize=address,undefined -fno-sanitize-recover=all"
    # Leak checks on; the LSan suppressions only name Qt's and the system's own allocations.
    export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1"
    export LSAN_OPTIONS="suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    export SKYNNET_TEST_TIME_SCALE=4   # the tests' hang guards (tests/test_support.h)
    ;;
  thread)
    dir=build-tsan
    flags="-fsanitize=thread"
    # ignore_noninstrumented_modules: Qt, GLib and libgomp are not instrumented; see tsan.supp.
    export TSAN_OPTIONS="suppressions=$root/scripts/sanitizers/tsan.supp:ignore_noninstrumented_modules=1:halt_on_error=1:second_deadlock_stack=1:print_suppressions=0"
    export OMP_THREAD_LIMIT=1   # see the note above
    export SKYNNET_TEST_TIME_SCALE=10
    ;;
  *)
    echo "usage: $0 address|thread [ctest arguments]" >&2
    exit 2
    ;;
esac
shift

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# -O1 -g: fast enough to train the end-to-end tests, stacks still readable. No -march=native: the
# sanitizer builds check the code, not this CPU's vector units. Sanitized trainings run several
# times slower than Release, so each test's time limit is raised to SKYNNET_SANITIZE_TIMEOUT s.
cmake -S . -B "$dir" -G Ninja "${launcher[@]}" \
  -DCMAKE_BUILD_TYPE=Sanitize -DSKYNNET_NATIVE=OFF \
  -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -g" \
  -DCMAKE_CXX_FLAGS="$flags -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" \
  -DSKYNNET_TEST_TIMEOUT="${SKYNNET_SANITIZE_TIMEOUT:-5400}"
cmake --build "$dir" -j"${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"

export QT_QPA_PLATFORM=offscreen
# Qt Test's own watchdog (5 min by default) would abort a sanitized end-to-end test first.
export QTEST_FUNCTION_TIMEOUT=$((${SKYNNET_SANITIZE_TIMEOUT:-5400} * 1000))
ctest --test-dir "$dir" --output-on-failure -j1 "$@"
