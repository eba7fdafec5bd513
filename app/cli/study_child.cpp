#include "study_child.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "core/error.h"

namespace skynnet::cli {
namespace {

volatile sig_atomic_t runningChild = 0;
volatile sig_atomic_t stopSignal = 0;
struct sigaction previousInt = {}, previousTerm = {};

extern "C" void onStopSignal(int sig) {
    if (stopSignal == 0) stopSignal = sig;
    // The same signal: a train run stops cleanly at its next batch on SIGINT and writes nothing.
    if (runningChild > 0) kill(pid_t(runningChild), sig);
}

}  // namespace

StudyStopGuard::StudyStopGuard() {
    stopSignal = 0;
    struct sigaction a = {};
    a.sa_handler = onStopSignal;
    sigemptyset(&a.sa_mask);
    sigaction(SIGINT, &a, &previousInt);
    sigaction(SIGTERM, &a, &previousTerm);
}

StudyStopGuard::~StudyStopGuard() {
    sigaction(SIGINT, &previousInt, nullptr);
    sigaction(SIGTERM, &previousTerm, nullptr);
}

bool StudyStopGuard::stopped() const { return stopSignal != 0; }

std::string StudyStopGuard::signalName() const { return stopSignal == SIGTERM ? "SIGTERM" : "SIGINT"; }

std::string ChildExit::describe() const {
    if (signal == 0) return "exit status " + std::to_string(exitCode);
    const char* name = strsignal(signal);
    return "signal " + std::to_string(signal) + (name ? std::string(" (") + name + ")" : "");
}

ChildExit runChild(const std::string& program, const std::vector<std::string>& args, const std::string& logPath) {
    const int log = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log < 0) throw Error("cannot write the run's log " + logPath + ": " + std::strerror(errno));
    // A failed exec reports its errno through this pipe, which a successful exec closes.
    int execPipe[2];
    if (pipe2(execPipe, O_CLOEXEC) != 0) {
        ::close(log);
        throw Error(std::string("cannot start a run: ") + std::strerror(errno));
    }
    std::vector<char*> argv = {const_cast<char*>(program.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        const int err = errno;
        ::close(log);
        ::close(execPipe[0]);
        ::close(execPipe[1]);
        throw Error(std::string("cannot start a run: ") + std::strerror(err));
    }
    if (pid == 0) {
        // Its own process group: a Ctrl-C at the terminal reaches the study, which passes it on once.
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(127);  // the study died before the line above
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        dup2(log, STDOUT_FILENO);
        dup2(log, STDERR_FILENO);
        execv(program.c_str(), argv.data());
        const int err = errno;
        (void)!write(execPipe[1], &err, sizeof err);
        _exit(127);
    }
    runningChild = pid;
    if (stopSignal != 0) kill(pid, stopSignal);  // arrived between fork and the line above
    ::close(log);
    ::close(execPipe[1]);
    int execError = 0;
    ssize_t got;
    while ((got = read(execPipe[0], &execError, sizeof execError)) < 0 && errno == EINTR) {
    }
    ::close(execPipe[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    runningChild = 0;
    if (got == ssize_t(sizeof execError)) throw Error("cannot run " + program + ": " + std::strerror(execError));
    ChildExit r;
    if (WIFSIGNALED(status)) {
        r.exitCode = -1;
        r.signal = WTERMSIG(status);
    } else {
        r.exitCode = WEXITSTATUS(status);
    }
    r.stopped = stopSignal != 0;
    return r;
}

}  // namespace skynnet::cli
