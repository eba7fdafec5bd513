#include "core/system_memory.h"

#include <cstdio>
#include <cstring>

#include <unistd.h>

namespace skynnet {

std::uint64_t availableMemoryBytes() {
    if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
        char line[256];
        unsigned long long kib = 0;
        bool found = false;
        while (!found && std::fgets(line, sizeof line, f))
            found = std::strncmp(line, "MemAvailable:", 13) == 0 && std::sscanf(line + 13, "%llu", &kib) == 1;
        std::fclose(f);
        if (found) return std::uint64_t(kib) * 1024;
    }
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? std::uint64_t(pages) * std::uint64_t(pageSize) : 0;
}

std::string memoryText(double bytes) {
    char buf[32];
    if (bytes >= 1e9) std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
    else if (bytes >= 1e6) std::snprintf(buf, sizeof buf, "%.0f MB", bytes / 1e6);
    else if (bytes >= 1e3) std::snprintf(buf, sizeof buf, "%.0f kB", bytes / 1e3);
    else std::snprintf(buf, sizeof buf, "%.0f bytes", bytes);
    return buf;
}

}  // namespace skynnet
