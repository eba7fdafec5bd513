#pragma once
// Ctrl-C during training: the first SIGINT asks the training to stop at the next batch boundary,
// a second one kills the process at once (the default action is restored after the first).
#include <atomic>
#include <string>
#include <thread>

#include "core/cancel.h"

namespace skynnet::cli {

class InterruptGuard {
public:
    // Installs the SIGINT handler; from then on an interrupt cancels `token`.
    explicit InterruptGuard(CancelToken token);
    // Restores the previous handler.
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    // Whether SIGINT arrived while the guard was alive.
    bool interrupted() const;

private:
    // The handler only stores to a lock-free atomic (async-signal-safe); this thread turns that
    // into token.cancel(), so the handler never touches the token's shared state.
    std::jthread watcher_;
};

// Reports "interrupted<detail>; no output written" as the error line and returns exitInterrupted.
int interruptedExit(const std::string& detail = "");

}  // namespace skynnet::cli
