#include "core/work_profile.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>

namespace skynnet::workprofile {
namespace {

std::atomic<bool> profiling{false};
std::mutex entriesMutex;

// Lives as long as the process: threads may record while another clears.
std::map<std::string, Entry>& table() {
    static auto* t = new std::map<std::string, Entry>;
    return *t;
}

}  // namespace

void setEnabled(bool on) { profiling.store(on, std::memory_order_relaxed); }

bool enabled() { return profiling.load(std::memory_order_relaxed); }

void clear() {
    const std::lock_guard lock(entriesMutex);
    table().clear();
}

std::vector<Entry> entries() {
    std::vector<Entry> out;
    {
        const std::lock_guard lock(entriesMutex);
        for (const auto& [name, e] : table()) out.push_back(e);
    }
    std::stable_sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.seconds > b.seconds; });
    return out;
}

WorkTimer::WorkTimer() : running_(enabled()) {
    if (running_) start_ = std::chrono::steady_clock::now();
}

double WorkTimer::seconds() const {
    return running_ ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() : 0.0;
}

void WorkTimer::record(const std::string& name, double flops, int threads) const {
    if (running_) add(name, seconds() * threads, flops);
}

void add(const std::string& name, double seconds, double flops) {
    if (!enabled()) return;
    // A product takes tens of microseconds or more: one lock per record is lost in it.
    const std::lock_guard lock(entriesMutex);
    Entry& e = table()[name];
    e.name = name;
    ++e.calls;
    e.seconds += seconds;
    e.flops += flops;
}

}  // namespace skynnet::workprofile
