#include "project/latest_write_queue.h"

#include <exception>

#include "core/error.h"

namespace skynnet {

LatestWriteQueue::~LatestWriteQueue() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void LatestWriteQueue::throwErrorOf(int key, std::unique_lock<std::mutex>& lock) {
    const auto e = errors_.find(key);
    if (e == errors_.end()) return;
    const std::string message = e->second;
    errors_.erase(e);
    lock.unlock();
    throw Error(message);
}

void LatestWriteQueue::post(int key, Write write) {
    std::unique_lock<std::mutex> lock(mutex_);
    throwErrorOf(key, lock);
    waiting_[key] = std::move(write);
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    lock.unlock();
    changed_.notify_all();
}

void LatestWriteQueue::drain(int key) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !waiting_.count(key) && running_ != key; });
    throwErrorOf(key, lock);
}

void LatestWriteQueue::drainAll() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return waiting_.empty() && !running_; });
}

void LatestWriteQueue::run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
        if (waiting_.empty()) return;  // stopping, and everything is written
        auto next = waiting_.begin();
        const int key = next->first;
        Write write = std::move(next->second);
        waiting_.erase(next);
        running_ = key;
        lock.unlock();
        std::string error;
        try {
            write();
        } catch (const std::exception& e) {
            error = e.what();
        }
        lock.lock();
        running_.reset();
        if (!error.empty()) errors_[key] = error;
        changed_.notify_all();
    }
}

}  // namespace skynnet
