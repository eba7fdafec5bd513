#pragma once
// A study's runs as child processes: each is a `skynnet-cli train` of its own, so a crash or an
// out-of-memory kill ends that run and not the study. SIGINT and SIGTERM to the study are passed
// on to the running child and the study waits for it: no run outlives the study, and a child
// whose study is killed outright is ended by the kernel (PR_SET_PDEATHSIG).
#include <string>
#include <vector>

namespace skynnet::cli {

// Catches SIGINT and SIGTERM while alive (restoring the previous handlers after): the first one
// stops the study, forwarded to the child running at the time.
class StudyStopGuard {
public:
    StudyStopGuard();
    ~StudyStopGuard();
    StudyStopGuard(const StudyStopGuard&) = delete;
    StudyStopGuard& operator=(const StudyStopGuard&) = delete;

    bool stopped() const;
    // "SIGINT" or "SIGTERM", once stopped.
    std::string signalName() const;
};

struct ChildExit {
    int exitCode = 0;              // its exit status; -1 when a signal ended it
    int signal = 0;                // the signal that ended it, if one did
    bool stopped = false;          // the study was asked to stop while it ran
    std::string describe() const;  // "exit status 1", "signal 9 (Killed)"
};

// Runs `program` with `args` in a process group of its own, stdout and stderr appended to
// logPath (truncated first), and waits for it. Throws Error naming what could not start.
ChildExit runChild(const std::string& program, const std::vector<std::string>& args, const std::string& logPath);

}  // namespace skynnet::cli
