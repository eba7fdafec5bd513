#pragma once
// Where a training step's time goes: the wall seconds spent in named kinds of work (each layer's
// pass, each matrix product by shape and backend, the optimiser's update, the slices' gathers and
// idle threads), summed over every thread that did them, with the floating-point operations they
// did. skynnet-bench prints it (SKYNNET_PROFILE=1).
// Off unless turned on; off, a WorkTimer costs one relaxed atomic load, so the timers stay in
// the training code rather than in a patch that is written again for each measurement.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace skynnet::workprofile {

void setEnabled(bool on);
bool enabled();
void clear();

struct Entry {
    std::string name;
    std::int64_t calls = 0;
    double seconds = 0;  // the threads' time, summed
    double flops = 0;
};
// Every kind of work timed since clear(), the most seconds first.
std::vector<Entry> entries();
// Adds one call of `seconds` (threads' time) and `flops` to `name`'s entry, when profiling is on.
void add(const std::string& name, double seconds, double flops = 0);

// Starts timing at construction when profiling is on; record() adds the time so far to `name`,
// times `threads` when that many threads were held for it.
class WorkTimer {
public:
    WorkTimer();
    bool running() const { return running_; }
    double seconds() const;  // since construction (0 when not running)
    void record(const std::string& name, double flops = 0, int threads = 1) const;

private:
    bool running_;
    std::chrono::steady_clock::time_point start_;
};

// Times its scope into `name` (a fixed name: nothing is built while profiling is off), as
// `threads` threads' time: work that holds a team of threads, the parallel loops inside it
// included, costs each of them its wall time.
class ScopedWork {
public:
    ScopedWork(const char* name, int threads) : name_(name), threads_(threads) {}
    ~ScopedWork() {
        // A figure lost to a failed allocation is better than an exception out of a destructor.
        try {
            if (timer_.running()) timer_.record(name_, 0, threads_);
        } catch (...) {
        }
    }
    ScopedWork(const ScopedWork&) = delete;
    ScopedWork& operator=(const ScopedWork&) = delete;

private:
    const char* name_;
    int threads_;
    WorkTimer timer_;
};

}  // namespace skynnet::workprofile
