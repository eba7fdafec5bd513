#pragma once
// How much memory the machine can give this process now, so that a large load is refused with a
// message instead of the process being killed for lack of memory half-way through.
#include <cstdint>
#include <string>

namespace skynnet {

// MemAvailable of /proc/meminfo (what the kernel can hand out without swapping: free memory plus
// reclaimable caches); the physical memory when that is unreadable; 0 when neither is known.
std::uint64_t availableMemoryBytes();

// "1.2 GB", "340 MB", "31 kB", "360 bytes": one decimal in gigabytes, whole units below.
std::string memoryText(double bytes);

}  // namespace skynnet
