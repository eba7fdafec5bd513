#pragma once
// The run control shared between the thread that asks and the workers that check it at batch
// boundaries: cancel (atomic, never a plain bool) and pause/resume (workers block at their next
// batch boundary until resumed or cancelled). Copies share one state. cancel() is a lock-free
// atomic store, so a signal handler may call it; a paused worker notices it within 50 ms.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace skynnet {

class CancelToken {
public:
    void cancel() { s_->cancelled.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return s_->cancelled.load(std::memory_order_relaxed); }
    void reset() {
        s_->cancelled.store(false, std::memory_order_relaxed);
        resume();
    }

    void pause() {
        std::lock_guard<std::mutex> lock(s_->mutex);
        s_->paused = true;
    }
    void resume() {
        std::lock_guard<std::mutex> lock(s_->mutex);
        s_->paused = false;
        s_->wake.notify_all();
    }
    bool paused() const {
        std::lock_guard<std::mutex> lock(s_->mutex);
        return s_->paused;
    }
    // Blocks while paused; returns at once when cancelled.
    void waitWhilePaused() const {
        std::unique_lock<std::mutex> lock(s_->mutex);
        while (s_->paused && !cancelled()) s_->wake.wait_for(lock, std::chrono::milliseconds(50));
    }

private:
    struct State {
        std::atomic<bool> cancelled{false};
        mutable std::mutex mutex;
        std::condition_variable wake;
        bool paused = false;
    };
    std::shared_ptr<State> s_ = std::make_shared<State>();
};

}  // namespace skynnet
