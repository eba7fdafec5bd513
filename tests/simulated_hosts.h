#pragma once
// K simulated hosts for a test (scripts/simulated-hosts.sh hold K): network namespaces with their
// own hostnames that mpirun reaches through the script, for as long as this object lives. The
// script removes them when its standard input closes, so they go however the test ends (a crash
// included); the settings it prints (OMPI_MCA_*, SIMHOSTS_*) are put in this process's environment
// for the mpirun that skynnet-cli starts.
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include "cli_support.h"
#include "test_support.h"

// In initTestCase, after the MPI backend's own check: mpirun and the namespaces are needed, and
// without them the test skips with the reason (fails under CI=true); then K hosts start.
#define START_SIMULATED_HOSTS(hosts, k)                                                       \
    do {                                                                                      \
        if (QStandardPaths::findExecutable("mpirun").isEmpty())                               \
            SKIP_UNLESS_CI("mpirun is not installed (openmpi-bin)");                          \
        const QString why = SimulatedHosts::unavailable();                                    \
        if (!why.isEmpty()) SKIP_UNLESS_CI(qPrintable("cannot simulate hosts here: " + why)); \
        const QString failed = (hosts).start(k);                                              \
        QVERIFY2(failed.isEmpty(), qPrintable(failed));                                       \
    } while (false)

class SimulatedHosts {
public:
    static QString script() { return QStringLiteral(SKYNNET_SOURCE_DIR "/scripts/simulated-hosts.sh"); }

    // Why hosts cannot be made on this machine (not root, no `ip netns`, ...), or empty.
    static QString unavailable() {
        const CliRun r = runProcess("bash", {script(), "check"}, 30000);
        if (r.exitCode == 0) return {};
        const QString why = (r.out + r.err).trimmed();
        return why.isEmpty() ? "simulated-hosts.sh check failed" : why;
    }

    // Makes K hosts; empty when they are ready, else what went wrong.
    QString start(int k) {
        script_.setProcessChannelMode(QProcess::SeparateChannels);
        script_.start("bash", {script(), "hold", QString::number(k)});
        if (!script_.waitForStarted()) return "cannot run bash " + script();
        QString out;
        QElapsedTimer t;
        t.start();
        while (!out.contains("\n# ready")) {
            if (script_.state() != QProcess::Running || t.elapsed() > hangGuardMs(60000))
                return "simulated-hosts.sh hold did not get ready: " + out +
                       QString::fromUtf8(script_.readAllStandardError());
            script_.waitForReadyRead(200);
            out += QString::fromUtf8(script_.readAllStandardOutput());
        }
        for (const QString& line : out.split('\n', Qt::SkipEmptyParts)) {
            const qsizetype eq = line.indexOf('=');
            if (line.startsWith('#') || eq < 0) continue;
            const QString name = line.left(eq), value = line.mid(eq + 1);
            qputenv(name.toUtf8().constData(), value.toUtf8());
            names_ << name;
            if (name == "SIMHOSTS_HOSTS") hosts_ = value.split(' ');
            if (name == "SIMHOSTS_HOSTFILE") hostfile_ = value;
            if (name == "SIMHOSTS_PREFIX") prefix_ = value;
        }
        if (hosts_.size() != k || hostfile_.isEmpty() || prefix_.isEmpty()) return "unexpected settings: " + out;
        return {};
    }

    // Closes the script's standard input, so that it removes the hosts, and waits until it has;
    // empty when it ended well, else what it said.
    QString stop() {
        for (const QString& name : names_) qunsetenv(name.toUtf8().constData());
        names_.clear();
        if (script_.state() == QProcess::NotRunning) return {};
        script_.closeWriteChannel();
        if (!script_.waitForFinished(hangGuardMs(60000))) return "simulated-hosts.sh did not end";
        const QString err = QString::fromUtf8(script_.readAllStandardError());
        return script_.exitStatus() == QProcess::NormalExit && script_.exitCode() == 0
                   ? QString()
                   : "simulated-hosts.sh ended with " + QString::number(script_.exitCode()) + ": " + err;
    }
    ~SimulatedHosts() { stop(); }

    const QStringList& hosts() const { return hosts_; }
    const QString& hostfile() const { return hostfile_; }
    const QString& prefix() const { return prefix_; }

    // Commands started on `host` from now on see `source` at `target` (a mount namespace of theirs).
    static CliRun bind(const QString& host, const QString& source, const QString& target) {
        return runProcess("bash", {script(), "bind", host, source, target}, 30000);
    }
    static CliRun unbind(const QString& host) { return runProcess("bash", {script(), "unbind", host}, 30000); }
    // A shell command run on `host`, as Open MPI runs its daemons there.
    static CliRun on(const QString& host, const QString& command) {
        return runProcess("bash", {script(), "on", host, command}, 30000);
    }

    // The processes running on `host` (in its network namespace). Open MPI's daemons detach from
    // mpirun (orted --daemonize), so a rank is found here rather than below the launcher.
    static QList<qint64> processesOn(const QString& host) {
        QList<qint64> pids;
        for (const QString& pid : runProcess("ip", {"netns", "pids", host}, 30000).out.split('\n', Qt::SkipEmptyParts))
            pids << pid.toLongLong();
        return pids;
    }

private:
    QProcess script_;
    QStringList names_, hosts_;
    QString hostfile_, prefix_;
};
