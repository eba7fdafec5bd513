#pragma once
// Writes on a thread of its own, latest first: each key (a submodel's checkpoint file) has at most
// one write waiting, and a newer one replaces it. Training hands its epoch checkpoints here and
// goes on: an fsync takes milliseconds (tens under load) where a small network's epoch takes less
// than one, and a run that waited for its disk at every epoch end would report the disk's time as
// the split's. A write skipped because a newer one replaced it loses nothing: the file is meant to
// hold the latest state, and each write replaces it whole.
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace skynnet {

class LatestWriteQueue {
public:
    using Write = std::function<void()>;

    LatestWriteQueue() = default;
    // Does what is waiting, then stops: a run that ends (stopped, failed or killed by an
    // exception) keeps its last checkpoints. Errors at that point are dropped.
    ~LatestWriteQueue();
    LatestWriteQueue(const LatestWriteQueue&) = delete;
    LatestWriteQueue& operator=(const LatestWriteQueue&) = delete;

    // Queues `write` for `key`, replacing the one still waiting there. Throws first the error an
    // earlier write for `key` failed with (an Error's message, once): the caller learns of a full
    // disk at its next save, as it would have at the save itself.
    void post(int key, Write write);
    // Returns once nothing for `key` waits or runs; throws the error its last write failed with.
    void drain(int key);
    // The same for every key; errors stay for drain() or post() to report.
    void drainAll();

private:
    void run();
    void throwErrorOf(int key, std::unique_lock<std::mutex>& lock);

    std::mutex mutex_;
    std::condition_variable changed_;
    std::map<int, Write> waiting_;
    std::optional<int> running_;
    std::map<int, std::string> errors_;
    bool stopping_ = false;
    std::thread thread_;  // started by the first post()
};

}  // namespace skynnet
