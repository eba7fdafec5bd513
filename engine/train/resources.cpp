#include "train/resources.h"

#include <omp.h>
#include <pthread.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <vector>

namespace skynnet {
namespace {

// Seconds on `clock`, or nothing when the clock is gone (its thread has ended).
std::optional<double> clockSeconds(clockid_t clock) {
    timespec ts{};
    if (clock_gettime(clock, &ts) != 0) return std::nullopt;
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// The CPU clocks of the calling thread's OpenMP team, the calling thread's first. They are read
// in a parallel region once per team size and kept: a region at every reading would wake the team,
// and a woken OpenMP thread spins for milliseconds before it sleeps again, so the reading would
// add the CPU time it measures (an epoch end of a small network comes every millisecond).
struct TeamClocks {
    int asked = 0;  // the team size the clocks were read for (OpenMP may have granted fewer)
    std::vector<clockid_t> clocks;

    void read(int team) {
        std::vector<clockid_t> found(static_cast<std::size_t>(team));
        std::vector<char> seen(static_cast<std::size_t>(team), 0);
#pragma omp parallel num_threads(team)
        {
            const auto t = std::size_t(omp_get_thread_num());
            seen[t] = pthread_getcpuclockid(pthread_self(), &found[t]) == 0;
        }
        clocks.clear();
        for (std::size_t t = 0; t < found.size(); ++t)
            if (seen[t]) clocks.push_back(found[t]);
        asked = team;
    }
};

}  // namespace

double workerCpuSeconds() {
    const int team = omp_get_max_threads();
    if (team <= 1) return clockSeconds(CLOCK_THREAD_CPUTIME_ID).value_or(0.0);
    thread_local TeamClocks team_;
    if (team_.asked < team) team_.read(team);
    for (int attempt = 0;; ++attempt) {
        double total = 0;
        bool whole = true;
        for (std::size_t t = 0; t < team_.clocks.size() && t < std::size_t(team); ++t) {
            const std::optional<double> s = clockSeconds(team_.clocks[t]);
            whole = whole && s.has_value();
            total += s.value_or(0.0);
        }
        if (whole || attempt > 0) return total;
        team_.read(team);  // OpenMP replaced a thread of the team: find the new one's clock
    }
}

double processCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

std::int64_t processResidentBytes() {
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return std::int64_t(resident) * sysconf(_SC_PAGESIZE);
}

std::int64_t processPeakResidentBytes() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return std::int64_t(u.ru_maxrss) * 1024;
}

}  // namespace skynnet
