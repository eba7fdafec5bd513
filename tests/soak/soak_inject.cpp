#include "soak_inject.h"

#include <QDir>
#include <QFile>
#include <QTimer>
#include <QUndoStack>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/mount.h>
#include <unistd.h>

#include "io/file_faults.h"
#include "project/project_file.h"
#include "soak_checks.h"
#include "soak_cycle.h"
#include "ui/core/host_run.h"
#include "ui/core/project_document.h"
#include "ui/core/project_io.h"
#include "ui/core/training_session.h"

namespace soak {

using namespace skynnet;
using namespace skynnet::ui;

namespace {

constexpr int runTimeoutMs = 600'000;
bool mounted = false;
std::atomic<bool> seamArmed{false};

QString diskFolder(const Fixture& f) { return f.path(QStringLiteral("full")); }
QString fillerPath(const Fixture& f) { return f.path(QStringLiteral("full/filler")); }

// The seam's stand-in for a full disk, where no tmpfs could be mounted: every write fails.
int fullDiskSeam(SaveStep step, int, const char*) { return seamArmed && step == SaveStep::Write ? ENOSPC : 0; }

// Writes until the disk refuses another byte.
void fillDisk(const QString& path) {
    QFile filler(path);
    expect(filler.open(QIODevice::WriteOnly), QStringLiteral("cannot create ") + path);
    const QByteArray chunk(64 * 1024, 'x');
    for (qsizetype size : {qsizetype(64 * 1024), qsizetype(4096), qsizetype(1)})
        while (filler.write(chunk.constData(), size) == size && filler.flush()) {
        }
    filler.close();
}

// The training child of this process (skynnet-cli), killed with SIGKILL; its pid, or 0 if none.
pid_t killChild() {
    const pid_t self = ::getpid();
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        const pid_t pid = entry.toInt(&number);
        if (!number) continue;
        QFile statFile(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!statFile.open(QIODevice::ReadOnly)) continue;
        const QByteArray stat = statFile.readAll();
        // "pid (name) state ppid ...": the name may hold spaces, so split after its ')'.
        const qsizetype open = stat.indexOf('('), close = stat.lastIndexOf(')');
        if (open < 0 || close < 0) continue;
        const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
        if (fields.size() < 2 || fields[1].toInt() != self || stat.mid(open + 1, close - open - 1) != "skynnet-cli")
            continue;
        if (::kill(pid, SIGKILL) == 0) return pid;
    }
    return 0;
}

ProjectData opened(Fixture& f, const QString& path, const QString& what) {
    try {
        ProjectData p = loadProject(path.toStdString());
        ++f.tally().projectsOpened;
        return p;
    } catch (const std::exception& e) {
        throw Failure{QStringLiteral("%1 does not open: %2").arg(what, QString::fromUtf8(e.what()))};
    }
}

}  // namespace

bool mountSmallDisk(Fixture& f) {
    const QString dir = diskFolder(f);
    QDir().mkpath(dir);
    mounted = ::mount("tmpfs", dir.toLocal8Bit().constData(), "tmpfs", MS_NOSUID | MS_NODEV, "size=8m") == 0;
    if (!mounted) {
        std::fprintf(stderr, "cannot mount a tmpfs on %s (%s): a full disk is simulated by the save seam\n",
                     qPrintable(dir), std::strerror(errno));
        setSaveFaultHook(fullDiskSeam);
    }
    return mounted;
}

void unmountSmallDisk(Fixture& f) {
    if (mounted && ::umount(diskFolder(f).toLocal8Bit().constData()) != 0)
        std::fprintf(stderr, "cannot unmount %s: %s\n", qPrintable(diskFolder(f)), std::strerror(errno));
    mounted = false;
    setSaveFaultHook(nullptr);
}

void injectFullDisk(Fixture& f) {
    ProjectDocument& doc = f.document();
    TrainingSession& session = f.session();
    const QString path = diskFolder(f) + QStringLiteral("/soak.skynnet");
    try {
        saveProjectFile(path, doc, session);  // room for it yet
    } catch (const std::exception& e) {
        throw Failure{QStringLiteral("the save before the disk filled failed: ") + QString::fromUtf8(e.what())};
    }
    const QByteArray before = fileBytes(path);
    if (mounted) fillDisk(fillerPath(f));
    else seamArmed = true;

    ProjectTraining t = doc.trainSettings();
    t.config.epochs += 1;  // the save would write something else
    doc.editTrainSettings(t);
    QString message;
    try {
        saveProjectFile(path, doc, session);
    } catch (const std::exception& e) {
        message = QString::fromUtf8(e.what());
    }
    seamArmed = false;
    expect(!message.isEmpty(), QStringLiteral("a save to a full disk did not fail"));
    ++f.tally().fullDiskSaves;
    if (f.tally().fullDiskSaves == 1) std::printf("full disk: the save says \"%s\"\n", qPrintable(message));
    expect(message.contains(path) && message.contains(QString::fromLocal8Bit(std::strerror(ENOSPC))),
           QStringLiteral("the full disk's error does not name the file and the cause: ") + message);
    expect(fileBytes(path) == before, path + QStringLiteral(" changed under a failed save"));
    const ProjectData previous = opened(f, path, QStringLiteral("the previous project after a failed save"));
    expect(previous.runs.size() == doc.runs().size() && previous.training.config.epochs + 1 == t.config.epochs,
           QStringLiteral("the previous project does not hold what was saved before"));
    QStringList beside = QDir(diskFolder(f)).entryList(QDir::Files | QDir::Hidden | QDir::System);
    beside.removeAll(QStringLiteral("filler"));
    expect(beside == QStringList{QStringLiteral("soak.skynnet")},
           QStringLiteral("beside the project on the full disk: ") + beside.join(QStringLiteral(", ")));
    ++f.tally().previousIntact;

    // Room again: the same save goes through.
    QFile::remove(fillerPath(f));
    try {
        saveProjectFile(path, doc, session);
    } catch (const std::exception& e) {
        throw Failure{QStringLiteral("the save once the disk had room failed: ") + QString::fromUtf8(e.what())};
    }
    expect(opened(f, path, QStringLiteral("the project saved once the disk had room")).training == doc.trainSettings(),
           QStringLiteral("the save once the disk had room holds other settings"));
    doc.undoStack()->undo();
}

void injectKilledChild(Fixture& f) {
#ifndef SKYNNET_CLI_PATH
    (void)f;
    return;  // built without skynnet-cli: no child to kill
#else
    ProjectDocument& doc = f.document();
    TrainingSession& session = f.session();
    const QString dir = f.path(QStringLiteral("child"));
    QDir(dir).removeRecursively();
    QDir().mkpath(dir);
    const QString copy = dir + QStringLiteral("/run.skynnet"), checkpoint = copy + QStringLiteral(".checkpoint");
    const QByteArray projectBefore = fileBytes(projectPath(f));
    try {
        writeProjectCopy(copy, doc, session);
    } catch (const std::exception& e) {
        throw Failure{QStringLiteral("the project copy for the child failed: ") + QString::fromUtf8(e.what())};
    }

    QObject guard;  // a kill still pending when this returns is dropped with it
    bool armed = true;
    pid_t killed = 0;
    f.onEpochDone = [&] {
        if (!armed) return;
        armed = false;
        QTimer::singleShot(std::uniform_int_distribution<int>(0, 50)(f.random()), &guard,
                           [&] { killed = killChild(); });
    };
    int before = f.finishedCount();
    RunCommand command = hostRunCommand(copy, RunPlace{}, 2, false);
    session.startCommand(command.program, command.arguments, copy);
    f.waitFinished(before, runTimeoutMs, QStringLiteral("the killed child's run to end"));
    f.onEpochDone = nullptr;
    expect(fileBytes(projectPath(f)) == projectBefore,
           QStringLiteral("the project file changed while its copy trained"));
    opened(f, projectPath(f), QStringLiteral("the project after its child was killed"));
    if (f.lastStatus() == TrainStatus::Completed) {  // the child had finished when the kill came
        ++f.tally().killsTooLate;
        QDir(dir).removeRecursively();
        return;
    }
    expect(killed != 0, QStringLiteral("no training child to kill"));
    ++f.tally().childrenKilled;
    if (f.tally().childrenKilled == 1) std::printf("killed child: the run says \"%s\"\n", qPrintable(f.lastMessage()));
    expect(f.lastStatus() == TrainStatus::Failed && f.lastMessage().contains(QStringLiteral("signal")),
           QStringLiteral("the killed child's run did not fail saying it was killed: ") + f.lastMessage());
    // The copy is whole: as it was, or (killed between its last save and its exit) with the run.
    const ProjectData afterKill = opened(f, copy, QStringLiteral("the killed child's project copy"));
    if (!afterKill.runs.empty()) {
        expect(afterKill.runs.size() == 1 && afterKill.runs[0].status == TrainStatus::Completed,
               QStringLiteral("the killed child's copy holds a run it did not complete"));
        ++f.tally().killsTooLate;
        QDir(dir).removeRecursively();
        return;
    }
    expect(QDir(checkpoint).exists(), checkpoint + QStringLiteral(" is missing after the kill"));

    before = f.finishedCount();
    command = hostRunCommand(copy, RunPlace{}, 2, true);
    session.startCommand(command.program, command.arguments, copy);
    f.waitFinished(before, runTimeoutMs, QStringLiteral("the resumed child's run to end"));
    expect(f.lastStatus() == TrainStatus::Completed,
           QStringLiteral("the resumed child's run ended: ") + f.lastMessage());
    const ProjectData trained = opened(f, copy, QStringLiteral("the resumed child's project copy"));
    expect(trained.runs.size() == 1 && trained.runs[0].status == TrainStatus::Completed && trained.runs[0].results &&
               trained.runs[0].results->model,
           QStringLiteral("the resumed child's copy does not hold its completed run"));
    expect(!QDir(checkpoint).exists(), checkpoint + QStringLiteral(" is left after the resumed run"));
    ++f.tally().killedRunsResumed;
    QDir(dir).removeRecursively();
#endif
}

void clearInjections(Fixture& f) {
    seamArmed = false;
    QFile::remove(fillerPath(f));
}

}  // namespace soak
