#include "mpi_launch.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/error.h"
#include "core/parallel.h"

namespace skynnet::cli {
namespace {

volatile sig_atomic_t childPid = 0;
volatile sig_atomic_t signalled = 0;

extern "C" void forwardSignal(int sig) {
    signalled = 1;
    // SIGTERM whatever came in: mpirun then ends every rank (SIGTERM, then SIGKILL) and exits.
    if (childPid > 0) kill(pid_t(childPid), SIGTERM);
    (void)sig;
}

struct SignalForwarding {
    struct sigaction previousInt = {}, previousTerm = {};
    SignalForwarding() {
        struct sigaction a = {};
        a.sa_handler = forwardSignal;
        sigemptyset(&a.sa_mask);
        sigaction(SIGINT, &a, &previousInt);
        sigaction(SIGTERM, &a, &previousTerm);
    }
    ~SignalForwarding() {
        sigaction(SIGINT, &previousInt, nullptr);
        sigaction(SIGTERM, &previousTerm, nullptr);
    }
};

}  // namespace

int hostfileSlots(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw Error("cannot read the hostfile " + path + ": " + std::strerror(errno));
    int slots = 0, lineNumber = 0;
    std::string line;
    static const std::regex entry(R"(^\s*(\S+)((?:\s+\S+)*)\s*$)"),
        slotsField(R"((?:^|\s)(?:slots|max_slots)\s*=\s*(\d+))");
    while (std::getline(in, line)) {
        ++lineNumber;
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        std::smatch m;
        if (!std::regex_match(line, m, entry))
            throw Error(path + ":" + std::to_string(lineNumber) + ": expected 'host [slots=N]'");
        std::smatch s;
        const std::string rest = m[2].str();
        if (std::regex_search(rest, s, slotsField)) {
            const int n = std::stoi(s[1].str());
            if (n < 1) throw Error(path + ":" + std::to_string(lineNumber) + ": slots must be at least 1");
            slots += n;
        } else if (rest.find("slots") != std::string::npos) {
            throw Error(path + ":" + std::to_string(lineNumber) + ": expected slots=N with a whole number N");
        } else {
            slots += 1;
        }
    }
    if (slots == 0) throw Error("the hostfile " + path + " names no host");
    return slots;
}

int defaultRanks(const MpiLaunch& launch) {
    return 1 + (launch.hostsFile.empty() ? hardwareThreads() : hostfileSlots(launch.hostsFile));
}

std::vector<std::string> mpirunCommand(const MpiLaunch& launch, const std::vector<std::string>& exported,
                                       const std::vector<std::string>& program) {
    const int ranks = launch.ranks > 0 ? launch.ranks : defaultRanks(launch);
    const int slots = launch.hostsFile.empty() ? hardwareThreads() : hostfileSlots(launch.hostsFile);
    std::vector<std::string> c = {"mpirun"};
    if (geteuid() == 0) c.push_back("--allow-run-as-root");
    if (ranks > slots) c.push_back("--oversubscribe");
    // Unless oversubscribed, Open MPI binds each rank to one core: a worker's kernel threads, and
    // the cores another worker hands on when it runs out of submodels, would then share that core.
    c.insert(c.end(), {"--bind-to", "none"});
    if (!launch.hostsFile.empty()) c.insert(c.end(), {"--hostfile", launch.hostsFile});
    c.insert(c.end(), {"-np", std::to_string(ranks)});
    for (const std::string& name : exported) c.insert(c.end(), {"-x", name});
    c.insert(c.end(), program.begin(), program.end());
    return c;
}

MpirunResult runMpirun(const std::vector<std::string>& command) {
    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0) throw Error(std::string("cannot start mpirun: ") + std::strerror(errno));
    // Installed before the child exists, so a signal arriving in between is not lost for it.
    SignalForwarding forwarding;
    signalled = 0;
    // The error pipe reports a failed exec to the parent (closed on a successful one).
    int execFds[2];
    if (pipe2(execFds, O_CLOEXEC) != 0) throw Error(std::string("cannot start mpirun: ") + std::strerror(errno));
    const pid_t pid = fork();
    if (pid < 0) throw Error(std::string("cannot start mpirun: ") + std::strerror(errno));
    if (pid == 0) {
        dup2(pipeFds[1], STDERR_FILENO);
        std::vector<char*> argv;
        for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        execvp(argv[0], argv.data());
        const int err = errno;
        (void)!write(execFds[1], &err, sizeof err);
        _exit(127);
    }
    childPid = pid;
    if (signalled) kill(pid, SIGTERM);
    close(pipeFds[1]);
    close(execFds[1]);
    int execError = 0;
    const bool execFailed = read(execFds[0], &execError, sizeof execError) == sizeof execError;
    close(execFds[0]);

    MpirunResult r;
    std::string pending;
    char buffer[4096];
    for (;;) {
        const ssize_t n = read(pipeFds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        (void)!write(STDERR_FILENO, buffer, std::size_t(n));
        pending.append(buffer, std::size_t(n));
        for (std::size_t end; (end = pending.find('\n')) != std::string::npos;) {
            r.stderrLines.push_back(pending.substr(0, end));
            pending.erase(0, end + 1);
        }
    }
    if (!pending.empty()) r.stderrLines.push_back(pending);
    close(pipeFds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    childPid = 0;
    if (execFailed)
        throw Error("cannot run " + command[0] + ": " + std::strerror(execError) +
                    (execError == ENOENT ? " (install Open MPI: openmpi-bin)" : ""));
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.interrupted = signalled != 0;
    return r;
}

std::optional<DeadRank> deadRankIn(const std::vector<std::string>& lines) {
    static const std::regex died(
        R"(process rank (\d+) with PID \d+ on node (\S+) exited on (signal \d+(?: \([^)]*\))?))");
    for (const std::string& line : lines) {
        std::smatch m;
        if (std::regex_search(line, m, died)) return DeadRank{std::stoi(m[1].str()), m[2].str(), m[3].str()};
    }
    return std::nullopt;
}

std::string selfExecutable() {
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) throw Error("cannot find this program's own path (/proc/self/exe)");
    return std::string(path, std::size_t(n));
}

}  // namespace skynnet::cli
