#pragma once
// What the tests that start MPI jobs read about processes from /proc (Linux): children, the MPI
// rank a process runs as, and whether it has ended. The ranks of a job are mpirun's children on
// this machine, so a test finds the one it wants to kill without asking the job.
#include <QDir>
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>

namespace skynnet::test {

// The fields of /proc/PID/stat after the name ("state ppid pgrp ..."); empty when it is gone.
// The name may hold spaces, so the fields are read after its ')'.
inline QStringList procStatFields(qint64 pid) {
    QFile stat("/proc/" + QString::number(pid) + "/stat");
    if (!stat.open(QIODevice::ReadOnly)) return {};
    const QString text = QString::fromUtf8(stat.readAll());
    const qsizetype close = text.lastIndexOf(')');
    return close < 0 ? QStringList() : text.mid(close + 2).split(' ');
}

// Direct children of a process.
inline QList<qint64> childrenOf(qint64 parent) {
    QList<qint64> out;
    for (const QString& entry : QDir("/proc").entryList(QDir::Dirs)) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid) continue;
        const QStringList f = procStatFields(pid);
        if (f.size() > 1 && f[1].toLongLong() == parent) out << pid;
    }
    return out;
}

// Every process below `ancestor`, children first.
inline QList<qint64> descendantsOf(qint64 ancestor) {
    QList<qint64> out = childrenOf(ancestor);
    for (qsizetype i = 0; i < out.size(); ++i) out += childrenOf(out[i]);
    return out;
}

// OMPI_COMM_WORLD_RANK of a process, -1 when it has none (or is gone).
inline int mpiRankOf(qint64 pid) {
    QFile env("/proc/" + QString::number(pid) + "/environ");
    if (!env.open(QIODevice::ReadOnly)) return -1;
    for (const QByteArray& v : env.readAll().split('\0'))
        if (v.startsWith("OMPI_COMM_WORLD_RANK=")) return v.mid(21).toInt();
    return -1;
}

// Gone, or ended and waiting to be reaped: not running any more.
inline bool ended(qint64 pid) {
    const QStringList f = procStatFields(pid);
    return f.isEmpty() || f[0] == "Z" || f[0] == "X";
}

}  // namespace skynnet::test
