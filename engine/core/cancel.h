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
    bool cancelled() const {
        return s_->cancelled.load(std::memory_order_relaxed) ||
               (s_->parent && s_->parent->cancelled.load(std::memory_order_relaxed));
    }
    void reset() {
        s_->cancelled.store(false, std::memory_order_relaxed);
        resume();
    }
    // A token cancelled with this one that can also be cancelled alone, sharing this one's pause:
    // a failed submodel stops its siblings without cancelling the run the caller owns.
    CancelToken linked() const {
        CancelToken t;
        t.s_->parent = s_;
        t.s_->pause = s_->pause;
        return t;
    }

    void pause() {
        Pause& p = *s_->pause;
        std::lock_guard<std::mutex> lock(p.mutex);
        p.paused = true;
    }
    void resume() {
        Pause& p = *s_->pause;
        std::lock_guard<std::mutex> lock(p.mutex);
        p.paused = false;
        p.wake.notify_all();
    }
    bool paused() const {
        Pause& p = *s_->pause;
        std::lock_guard<std::mutex> lock(p.mutex);
        return p.paused;
    }
    // Blocks while paused; returns at once when cancelled.
    void waitWhilePaused() const {
        Pause& p = *s_->pause;
        std::unique_lock<std::mutex> lock(p.mutex);
        while (p.paused && !cancelled()) p.wake.wait_for(lock, std::chrono::milliseconds(50));
    }

private:
    struct Pause {
        std::mutex mutex;
        std::condition_variable wake;
        bool paused = false;
    };
    struct State {
        std::atomic<bool> cancelled{false};
        std::shared_ptr<const State> parent;  // set once, before the token is shared
        std::shared_ptr<Pause> pause = std::make_shared<Pause>();
    };
    std::shared_ptr<State> s_ = std::make_shared<State>();
};

}  // namespace skynnet
