#pragma once
// A wake-up call between the processes of one host: a 32-bit counter in memory they share (the
// host's shared block, MpiSession), which a sender bumps after it has sent a message, and on which
// the receiver sleeps in the kernel (a futex) until it changes or a timeout passes. Open MPI has
// no blocking wait that does not spin, so a waiting rank otherwise has to wake up and probe; with
// a doorbell it sleeps until there is something to probe for, the timeout only a safety net.
#include <chrono>
#include <cstdint>

namespace skynnet {

class Doorbell {
public:
    Doorbell() = default;
    // word: 4-byte aligned, in memory shared with the other processes (MAP_SHARED), zeroed once.
    explicit Doorbell(std::uint32_t* word) : word_(word) {}

    bool present() const { return word_ != nullptr; }
    // The count before probing: a ring that comes after it ends the next wait at once.
    std::uint32_t count() const;
    // Sleeps until the count differs from `seen`, a ring, a signal or the timeout.
    void wait(std::uint32_t seen, std::chrono::milliseconds timeout) const;
    // Bumps the count and wakes whoever waits on it.
    void ring() const;

private:
    std::uint32_t* word_ = nullptr;
};

}  // namespace skynnet
