#pragma once
// The run control shared between the thread that asks and the workers that check it at batch
// boundaries: cancel (atomic, never a plain bool) and pause/resume (workers block at their next
// batch boundary until resumed or cancelled). Copies share one state.
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace skynnet {

class CancelToken {
public:
    void cancel() {
        s_->cancelled.store(true, std::memory_order_relaxed);
        std::lock_guard<std::mutex> lock(s_->mutex);
        s_->wake.notify_all();
    }
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
        s_->wake.wait(lock, [this] { return !s_->paused || cancelled(); });
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
