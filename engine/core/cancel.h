#pragma once
// The run control shared between the thread that asks and the workers that check it at batch
// boundaries: cancel (atomic, never a plain bool) and pause/resume (workers block at their next
// batch boundary until resumed or cancelled). Copies share one state. cancel() is a lock-free
// atomic store, so a signal handler may call it; a paused worker notices it within 50 ms.
// The token also keeps when it was paused: a run's durations leave that time out (RunStopwatch),
// and a front end draws the pauses on the run's clock (pausesSince).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace skynnet {

// A stretch of time a run was paused, in seconds since the run's clock origin (the clock of
// ResourceSample::elapsedSeconds).
struct PauseInterval {
    double startSeconds = 0, endSeconds = 0;
    bool operator==(const PauseInterval&) const = default;
};

class CancelToken {
public:
    using Clock = std::chrono::steady_clock;

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

    // Pausing a paused token (or resuming a running one) changes nothing: a pause lasts from its
    // first pause() to the resume() after it.
    void pause() {
        Pause& p = *s_->pause;
        std::lock_guard<std::mutex> lock(p.mutex);
        if (p.paused) return;
        p.paused = true;
        p.since = Clock::now();
    }
    void resume() {
        Pause& p = *s_->pause;
        std::lock_guard<std::mutex> lock(p.mutex);
        if (p.paused) {
            p.paused = false;
            p.ended.push_back({p.since, Clock::now()});
            p.total += p.ended.back().second - p.ended.back().first;
        }
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

    // Every second this token was paused, the pause going on now included up to now. Two readings
    // bracket what a duration measured between them has to leave out.
    double pausedSeconds() const {
        Pause& p = *s_->pause;
        std::lock_guard<std::mutex> lock(p.mutex);
        Clock::duration d = p.total;
        if (p.paused) d += Clock::now() - p.since;
        return std::chrono::duration<double>(d).count();
    }
    // The pauses that ended after `origin` (a pause going on now ends now), as seconds since
    // origin; a pause that began before origin starts at 0. Oldest first.
    std::vector<PauseInterval> pausesSince(Clock::time_point origin) const {
        const auto since = [origin](Clock::time_point t) {
            return std::max(0.0, std::chrono::duration<double>(t - origin).count());
        };
        Pause& p = *s_->pause;
        std::lock_guard<std::mutex> lock(p.mutex);
        std::vector<PauseInterval> out;
        for (const auto& [start, end] : p.ended)
            if (end > origin) out.push_back({since(start), since(end)});
        if (p.paused) out.push_back({since(p.since), since(Clock::now())});
        return out;
    }

private:
    struct Pause {
        std::mutex mutex;
        std::condition_variable wake;
        bool paused = false;
        Clock::time_point since;                                             // while paused
        std::vector<std::pair<Clock::time_point, Clock::time_point>> ended;  // pauses resumed
        Clock::duration total{0};                                            // of `ended`
    };
    struct State {
        std::atomic<bool> cancelled{false};
        std::shared_ptr<const State> parent;  // set once, before the token is shared
        std::shared_ptr<Pause> pause = std::make_shared<Pause>();
    };
    std::shared_ptr<State> s_ = std::make_shared<State>();
};

// The wall seconds of a piece of a run less the time its token was paused meanwhile: what the
// training took, as opposed to how long the user left it waiting. Without a token, plain wall
// seconds. CPU time needs no such care: a paused worker uses none.
class RunStopwatch {
public:
    explicit RunStopwatch(const CancelToken* token = nullptr) { restart(token); }
    void restart(const CancelToken* token) {
        token_ = token ? std::optional<CancelToken>(*token) : std::nullopt;
        start_ = CancelToken::Clock::now();
        pausedAtStart_ = token_ ? token_->pausedSeconds() : 0.0;
    }
    double seconds() const {
        const double paused = token_ ? token_->pausedSeconds() - pausedAtStart_ : 0.0;
        const double wall = std::chrono::duration<double>(CancelToken::Clock::now() - start_).count();
        return std::max(0.0, wall - paused);
    }
    CancelToken::Clock::time_point started() const { return start_; }

private:
    std::optional<CancelToken> token_;  // a copy: it shares the caller's state, so it never dangles
    CancelToken::Clock::time_point start_;
    double pausedAtStart_ = 0;
};

}  // namespace skynnet
