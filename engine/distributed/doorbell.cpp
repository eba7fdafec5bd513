#include "distributed/doorbell.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <ctime>

namespace skynnet {

std::uint32_t Doorbell::count() const { return std::atomic_ref<std::uint32_t>(*word_).load(std::memory_order_acquire); }

void Doorbell::wait(std::uint32_t seen, std::chrono::milliseconds timeout) const {
    const auto ms = timeout.count();
    timespec t{time_t(ms / 1000), long(ms % 1000) * 1000000L};
    // Not FUTEX_PRIVATE: the word is shared between processes. Returns at once when the count has
    // changed already (EAGAIN); EINTR and ETIMEDOUT just end the wait, the caller probes anyway.
    syscall(SYS_futex, word_, FUTEX_WAIT, seen, &t, nullptr, 0);
}

void Doorbell::ring() const {
    std::atomic_ref<std::uint32_t>(*word_).fetch_add(1, std::memory_order_release);
    syscall(SYS_futex, word_, FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

}  // namespace skynnet
