#pragma once
// CPU time and memory figures, read from the OS. The engine reports them; it never prints.
#include <cstdint>

namespace skynnet {

// CPU seconds of the calling thread and of the OpenMP team it runs its kernels on (libgomp keeps
// one team per calling thread, so the sum is this worker's own CPU use, not the process's).
double workerCpuSeconds();
double processCpuSeconds();
std::int64_t processResidentBytes();
std::int64_t processPeakResidentBytes();

}  // namespace skynnet
