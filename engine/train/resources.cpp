#include "train/resources.h"

#include <omp.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>

namespace skynnet {
namespace {

double threadCpu() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

}  // namespace

double workerCpuSeconds() {
    const int team = omp_get_max_threads();
    if (team <= 1) return threadCpu();
    double total = 0;
#pragma omp parallel num_threads(team) reduction(+ : total)
    total += threadCpu();
    return total;
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
