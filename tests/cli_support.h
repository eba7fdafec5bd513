#pragma once
// Running the built skynnet-cli from a test, as a user would from a shell.
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include "test_support.h"

#ifndef SKYNNET_CLI_PATH  // tests/CMakeLists.txt passes the built tool's path; this is its usual place
#define SKYNNET_CLI_PATH SKYNNET_BINARY_DIR "/app/cli/skynnet-cli"
#endif

// Sets an environment variable (SKYNNET_CLI: which tool the app runs) while in scope.
struct EnvScope {
    QByteArray name;
    EnvScope(const char* n, const QString& value) : name(n) { qputenv(n, value.toUtf8()); }
    ~EnvScope() { qunsetenv(name.constData()); }
};

struct CliRun {
    int exitCode = -1;
    QString out, err;
    QStringList errLines() const { return err.split('\n', Qt::SkipEmptyParts); }
};

// Runs `program arguments` and waits for it (killed after timeoutMs, stretched by hangGuardMs);
// env: variables added to this process's environment for it (e.g. a test-only switch).
inline CliRun runProcess(const QString& program, const QStringList& args, int timeoutMs,
                         const QProcessEnvironment& env = {}) {
    QProcess p;
    if (!env.isEmpty()) {
        QProcessEnvironment all = QProcessEnvironment::systemEnvironment();
        for (const QString& k : env.keys()) all.insert(k, env.value(k));
        p.setProcessEnvironment(all);
    }
    p.start(program, args);
    CliRun r;
    if (!p.waitForStarted() || !p.waitForFinished(hangGuardMs(timeoutMs))) {
        p.kill();
        p.waitForFinished();
        r.err = "did not finish: " + (program == QStringLiteral(SKYNNET_CLI_PATH) ? QString() : program + ' ') +
                args.join(' ');
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// Writes at `path` a copy of skynnet-cli with one byte more, executable: the same program as
// another build, which a rank compares by its hash. False when it cannot be written.
inline bool writeAnotherBuild(const QString& path) {
    if (!QFile::copy(QStringLiteral(SKYNNET_CLI_PATH), path)) return false;
    {
        QFile f(path);
        if (!f.open(QIODevice::Append) || f.write("x") != 1) return false;
    }
    return QFile::setPermissions(path, QFile::permissions(QStringLiteral(SKYNNET_CLI_PATH)));
}

inline CliRun runCli(const QStringList& args, int timeoutMs = 120000, const QProcessEnvironment& env = {}) {
    return runProcess(QStringLiteral(SKYNNET_CLI_PATH), args, timeoutMs, env);
}

// How many running processes have `text` in their command line (read from /proc): none may be
// left behind once a run ends.
inline int processesMentioning(const QString& text) {
    int n = 0;
    for (const QString& pid : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool number = false;
        pid.toInt(&number);
        if (!number) continue;
        QFile f("/proc/" + pid + "/cmdline");
        if (f.open(QIODevice::ReadOnly) && QString::fromUtf8(f.readAll()).contains(text)) ++n;
    }
    return n;
}

// A JSON report's top object, or an empty one when the file cannot be read.
inline QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// A text file's non-empty lines (a CSV the tool wrote), or none when it cannot be read.
inline QStringList readLines(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
}
