#include "interrupt.h"

#include <chrono>
#include <csignal>

#include "commands.h"

namespace skynnet::cli {
namespace {

std::atomic<bool> sigintSeen{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the SIGINT handler needs a lock-free flag");

struct sigaction previousAction;

extern "C" void onSigint(int) { sigintSeen.store(true, std::memory_order_relaxed); }

}  // namespace

InterruptGuard::InterruptGuard(CancelToken token) {
    sigintSeen.store(false);
    struct sigaction action = {};
    action.sa_handler = onSigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;  // a second Ctrl-C takes the default action: the user insists
    sigaction(SIGINT, &action, &previousAction);
    watcher_ = std::jthread([token](std::stop_token stop) mutable {
        while (!stop.stop_requested()) {
            if (sigintSeen.load(std::memory_order_relaxed)) {
                token.cancel();
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
}

InterruptGuard::~InterruptGuard() {
    watcher_.request_stop();
    watcher_.join();
    sigaction(SIGINT, &previousAction, nullptr);
}

bool InterruptGuard::interrupted() const { return sigintSeen.load(std::memory_order_relaxed); }

int interruptedExit(const std::string& detail) {
    printError("interrupted" + detail + "; no output written");
    return exitInterrupted;
}

}  // namespace skynnet::cli
