#pragma once
// CPU seconds for the benchmarks: a figure timed in CPU time is not charged for the time another
// process held the core.
#include <ctime>

namespace skynnet::bench {

inline double secondsOf(clockid_t clock) {
    timespec t{};
    clock_gettime(clock, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}
// This thread's CPU seconds.
inline double threadSeconds() { return secondsOf(CLOCK_THREAD_CPUTIME_ID); }
// The process's: every thread's.
inline double processSeconds() { return secondsOf(CLOCK_PROCESS_CPUTIME_ID); }

}  // namespace skynnet::bench
