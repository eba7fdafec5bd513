#pragma once
// Running the built skynnet-cli under mpirun from a test, as the README says to start it.
#include <netdb.h>
#include <unistd.h>

#include <QFile>
#include <QStandardPaths>
#include <QStringList>
#include <string>

#include "cli_support.h"
#include "split/worker_pool.h"

inline bool hostResolves(const std::string& host) {
    addrinfo* found = nullptr;
    const bool ok = getaddrinfo(host.c_str(), nullptr, nullptr, &found) == 0;
    if (found) freeaddrinfo(found);
    return ok;
}

// Empty when mpirun can start ranks here; else why not. Open MPI looks this host up, and without an
// entry MPI_Init stalls for about 10 s per rank: as root the entry is added.
inline QString mpiUnavailable() {
    if (QStandardPaths::findExecutable("mpirun").isEmpty()) return "mpirun is not installed (openmpi-bin)";
    const std::string host = skynnet::localHostName();
    if (hostResolves(host)) return {};
    if (geteuid() != 0)
        return QString("the host name %1 does not resolve: add '127.0.0.1 %1' to /etc/hosts (as root)")
            .arg(QString::fromStdString(host));
    QFile hosts("/etc/hosts");
    if (!hosts.open(QIODevice::Append)) return "cannot add this host's name to /etc/hosts";
    hosts.write(("127.0.0.1 " + host + "\n").c_str());
    return {};
}

// mpirun [--allow-run-as-root] --oversubscribe --bind-to none -np K <arguments>, waited for (bound
// to one core each, a worker's threads would share it). environment: NAME=VALUE settings for
// every rank (mpirun -x).
inline CliRun runMpirun(const QStringList& arguments, int timeoutMs = 300000, const QStringList& environment = {}) {
    QStringList args;
    if (geteuid() == 0) args << "--allow-run-as-root";
    args << "--oversubscribe";
    for (const QString& setting : environment) args << "-x" << setting;
    if (!arguments.contains("--bind-to"))
        args << "--bind-to"
             << "none";
    args << arguments;
    return runProcess(QStringLiteral("mpirun"), args, timeoutMs);
}
