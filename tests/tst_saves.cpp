// Saves that fail: every system call of a save fails in turn (through the writer's test seam,
// io/file_faults.h), and a child process is killed at every step of a large save and at moments
// in time. Each time, for every kind of file (model, combined model, project, ONNX of the model
// or of one submodel, C++ header, the app's recovery file), the previous file reads back byte
// for byte and its reader accepts it, the message names the file and the reason, and no
// temporary file stays behind for good.
#include <QDir>
#include <QtTest>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <functional>
#include <system_error>
#include <thread>

#include "core/error.h"
#include "export/cpp_export.h"
#include "export/onnx_export.h"
#include "io/atomic_file.h"
#include "io/file_faults.h"
#include "output_files.h"
#include "save_fixtures.h"
#include "test_support.h"

extern char** environ;

using namespace skynnet;

namespace {

struct Format {
    QString name;
    QString file;
    std::function<void(const save_fixtures::Files&, const std::string&)> save;
    std::function<void(const std::string&)> read;  // throws unless the file's reader accepts it
};

const std::vector<Format>& formats() {
    static const std::vector<Format> all = {
        {"model", "m.skynnet", [](const auto& f, const auto& p) { saveModel(p, f.single); },
         [](const auto& p) { (void)loadModel(p); }},
        {"combined", "c.skynnet", [](const auto& f, const auto& p) { saveCombinedModel(p, f.combined); },
         [](const auto& p) { (void)loadCombinedModel(p); }},
        {"project", "p.skynnet", [](const auto& f, const auto& p) { saveProject(p, f.project); },
         [](const auto& p) { (void)loadProject(p); }},
        // No reader for these two: byte identity with a whole export is the check.
        {"onnx", "m.onnx", [](const auto& f, const auto& p) { exportOnnx(f.combined, p); }, [](const auto&) {}},
        {"onnx-submodel", "m-sub1.onnx", [](const auto& f, const auto& p) { exportSubmodelOnnx(f.combined, 0, p); },
         [](const auto&) {}},
        {"cpp", "m.h", [](const auto& f, const auto& p) { exportCppHeader(f.combined, p); }, [](const auto&) {}},
        {"recovery", "untitled.recovery.skynnet", nullptr,
         [](const auto& p) {
             const ProjectData d = loadProject(p);
             if (!d.extra.contains("recoveryOf")) throw Error(p + " lacks recoveryOf");
         }},
    };
    return all;
}

const Format& format(const QString& name) {
    for (const Format& f : formats())
        if (f.name == name) return f;
    throw Error("no format " + name.toStdString());
}

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

std::string reason(int err) { return std::generic_category().message(err); }

int openDescriptors() { return int(QDir("/proc/self/fd").entryList(QDir::NoDotAndDotDot | QDir::System).size()); }

// The seam as the fault tests use it: records every call and fails the chosen one.
struct Injection {
    SaveStep step = SaveStep::CreateTemp;
    int index = -1;  // -1: fail nothing, only record
    int err = 0;
    std::vector<std::pair<SaveStep, int>> calls;
    std::string target;  // only the save of this file fails; empty: any
};
Injection injection;

int inject(SaveStep step, int index, const char* target) {
    injection.calls.emplace_back(step, index);
    const bool chosen = injection.target.empty() || injection.target == target;
    return chosen && step == injection.step && index == injection.index ? injection.err : 0;
}

struct HookInstalled {
    HookInstalled() { setSaveFaultHook(inject); }
    ~HookInstalled() { setSaveFaultHook(nullptr); }
};

// A reaped child's pid: a process that no longer exists.
pid_t deadPid() {
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(0);
    ::waitpid(pid, nullptr, 0);
    return pid;
}

// ---- the child process ----

struct Child {
    pid_t pid = -1;
    int out = -1;  // its stdout
};

Child spawnChild(const Format& f, int variant, int width, const QString& path, int killAt) {
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) throw Error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e)
        if (std::string(*e).rfind("SKYNNET_TEST_KILL_AT=", 0) != 0) env.emplace_back(*e);
    if (killAt > 0) env.push_back("SKYNNET_TEST_KILL_AT=" + std::to_string(killAt));
    std::vector<std::string> args = {SAVE_CHILD_PATH, f.name.toStdString(), std::to_string(variant),
                                     std::to_string(width), path.toStdString()};
    std::vector<char*> argv, envp;
    for (auto& a : args) argv.push_back(a.data());
    for (auto& e : env) envp.push_back(e.data());
    argv.push_back(nullptr);
    envp.push_back(nullptr);
    Child c;
    const int rc = posix_spawn(&c.pid, SAVE_CHILD_PATH, &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipeFds[1]);
    if (rc != 0) {
        ::close(pipeFds[0]);
        throw Error("cannot start " SAVE_CHILD_PATH ": " + reason(rc));
    }
    c.out = pipeFds[0];
    return c;
}

// Reads the child's stdout up to `until` (or its end); returns what was read.
std::string readOutput(const Child& c, const std::string& until = {}) {
    std::string text;
    char buf[256];
    while (until.empty() || text.find(until) == std::string::npos) {
        const ssize_t n = ::read(c.out, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buf, std::size_t(n));
    }
    return text;
}

// Waits for the child; returns its wait status.
int reap(Child& c) {
    int status = 0;
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
    ::close(c.out);
    return status;
}

struct FullSave {
    int steps = 0, rename = 0;
    double seconds = 0;  // from "saving" to the end, only to spread the timed kills
};

// Saves variant `variant` to `path` in a child, to the end.
FullSave saveInChild(const Format& f, int variant, int width, const QString& path) {
    Child c = spawnChild(f, variant, width, path, 0);
    readOutput(c, "saving\n");
    const auto start = std::chrono::steady_clock::now();
    const std::string rest = readOutput(c);
    const int status = reap(c);
    FullSave s;
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        std::sscanf(rest.c_str(), "steps %d rename %d", &s.steps, &s.rename) != 2)
        throw Error("save_child " + f.name.toStdString() + " failed: " + rest);
    return s;
}

}  // namespace

class TstSaves : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { qunsetenv("SKYNNET_TEST_WRITE_PIECE"); }  // each test sets its own

    void everyFailedStepKeepsThePreviousFile_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("width");
        QTest::newRow("model") << "model" << 40;
        QTest::newRow("combined") << "combined" << 40;
        QTest::newRow("project") << "project" << 600;  // a block over 1 MiB: written in two pieces
        QTest::newRow("onnx") << "onnx" << 40;
        QTest::newRow("onnx-submodel") << "onnx-submodel" << 40;
        QTest::newRow("cpp") << "cpp" << 40;
    }

    void everyFailedStepKeepsThePreviousFile() {
        QFETCH(QString, name);
        QFETCH(int, width);
        if (name.startsWith("onnx") && !onnxExportAvailable()) QSKIP("built without the ONNX library");
        const Format& f = format(name);
        QTemporaryDir dir;
        const std::string path = dir.filePath(f.file).toStdString();
        const save_fixtures::Files a = save_fixtures::make(1, width), b = save_fixtures::make(2, width);
        const int descriptors = openDescriptors();
        HookInstalled hook;

        // The calls a save over an existing file makes, in order.
        f.save(b, path);
        const std::string newBytes = readFile(path);
        f.save(a, path);
        const std::string oldBytes = readFile(path);
        QVERIFY(oldBytes != newBytes);
        injection = {};
        f.save(b, path);
        const std::vector<std::pair<SaveStep, int>> calls = injection.calls;
        QVERIFY(calls.size() >= 8);
        QCOMPARE(calls.front().first, SaveStep::CreateTemp);
        QCOMPARE(calls.back().first, SaveStep::SyncDirectory);

        for (const auto& [step, index] : calls) {
            for (const int err : {ENOSPC, EIO}) {
                f.save(a, path);
                const std::string what = std::string(saveStepName(step)) + " #" + std::to_string(index) + ": " +
                                         reason(err);
                injection = {step, index, err, {}, {}};
                const std::string message = errorOf([&] { f.save(b, path); });
                injection = {};
                if (step == SaveStep::OpenDirectory || step == SaveStep::SyncDirectory) {
                    // After the rename the new file is whole and in place: the save stands.
                    QVERIFY2(message == "(no error)", (what + ": " + message).c_str());
                    QVERIFY2(readFile(path) == newBytes, what.c_str());
                } else {
                    QCOMPARE(message, "cannot save " + path + ": " + reason(err));
                    QVERIFY2(readFile(path) == oldBytes, what.c_str());
                    const std::string readError = errorOf([&] { f.read(path); });
                    QVERIFY2(readError == "(no error)", (what + ": " + readError).c_str());
                }
                QCOMPARE(entries(dir.path()), QStringList{f.file});
            }
        }
        // An interrupted write is retried, not an error.
        injection = {SaveStep::Write, 0, EINTR, {}, {}};
        f.save(b, path);
        QCOMPARE(readFile(path), newBytes);
        QCOMPARE(openDescriptors(), descriptors);  // every failure closed what it opened
    }

    // Each piece is a call the tests can fail or kill at (file_faults.h promises at most 1 MiB).
    void largeBuffersAreWrittenInPieces() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("big").toStdString();
        std::string bytes(3 * (1 << 20) + 12345, '\0');
        for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = char(i * 7 + (i >> 11));
        HookInstalled hook;
        injection = {};
        writeFileAtomically(path, bytes);
        std::vector<int> writes;
        for (const auto& [step, index] : injection.calls)
            if (step == SaveStep::Write) writes.push_back(index);
        QCOMPARE(writes, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(readFile(path), bytes);
        // Full disk at the last piece: the file written before stays.
        injection = {SaveStep::Write, 3, ENOSPC, {}, {}};
        QCOMPARE(errorOf([&] { writeFileAtomically(path, std::string(bytes.size(), 'n')); }),
                 "cannot save " + path + ": No space left on device");
        QCOMPARE(readFile(path), bytes);
        QCOMPARE(entries(dir.path()), QStringList{"big"});
    }

    // skynnet-cli train --save M --report R: a report that fails after the model was saved puts
    // the previous model back, so neither file changes.
    void cliReportFailureKeepsThePreviousModel() {
        QTemporaryDir dir;
        const std::string model = dir.filePath("m.skynnet").toStdString(),
                          report = dir.filePath("r.json").toStdString();
        const auto saveNew = [](const std::string& path) { writeFileAtomically(path, "new model"); };
        HookInstalled hook;
        for (const bool hadModel : {true, false}) {
            const std::string context = hadModel ? "over a model" : "no model before";
            injection = {};
            std::remove(model.c_str());
            if (hadModel) writeFileAtomically(model, "old model");
            writeFileAtomically(report, "old report");
            injection = {SaveStep::Sync, 0, EIO, {}, report};  // the report's commit
            QCOMPARE(errorOf([&] { cli::writeReportAndModel(report, "new report", model, saveNew); }),
                     "cannot save " + report + ": Input/output error");
            QCOMPARE(readFile(report), std::string("old report"));
            if (hadModel) QCOMPARE(readFile(model), std::string("old model"));
            QCOMPARE(entries(dir.path()), hadModel ? QStringList({"m.skynnet", "r.json"}) : QStringList{"r.json"});
        }
        injection = {};
        cli::writeReportAndModel(report, "new report", model, saveNew);
        QCOMPARE(readFile(report), std::string("new report"));
        QCOMPARE(readFile(model), std::string("new model"));
        QCOMPARE(entries(dir.path()), QStringList({"m.skynnet", "r.json"}));  // the backup is gone
        // The backup's name is one the cleanup of killed saves knows.
        const QString name = QString::fromStdString(temporaryPathFor(model));
        QVERIFY2(name.startsWith(dir.filePath(".m.skynnet.tmp-" + QString::number(::getpid()) + "-")),
                 qPrintable(name));
    }

    void staleTempFilesAreRemoved() {
        QTemporaryDir dir;
        const QString d = dir.path() + "/";
        const auto touch = [&](const QString& name) { writeFileAtomically((d + name).toStdString(), "x"); };
        const QString dead = QString::number(deadPid()), alive = QString::number(::getpid());
        touch("p.skynnet");
        touch(".p.skynnet.tmp-" + dead + "-0");                   // killed: removed
        touch(".p.skynnet.tmp-" + dead + "-17");                  // killed: removed
        touch(".p.skynnet.tmp-" + alive + "-900");                // a save still running: kept
        touch(".p.skynnet.tmp-" + dead + "-901");                 // locked by a writer elsewhere: kept
        touch(".q.skynnet.tmp-" + dead + "-0");                   // another file's: only the folder sweep
        touch(".p.skynnet.tmp-12ab-0");                           // not a name the writer makes: kept
        touch("p.skynnet.tmp-" + dead + "-0");                    // not hidden: kept
        QVERIFY(QDir(d).mkdir(".p.skynnet.tmp-" + dead + "-2"));  // a directory: kept
        const int locked = ::open((d + ".p.skynnet.tmp-" + dead + "-901").toLocal8Bit().constData(), O_RDONLY);
        QVERIFY(locked >= 0);
        QCOMPARE(::flock(locked, LOCK_EX), 0);

        writeFileAtomically((d + "p.skynnet").toStdString(), "new");  // the next save of p
        const QStringList kept = {".p.skynnet.tmp-" + alive + "-900", ".p.skynnet.tmp-" + dead + "-2",
                                  ".p.skynnet.tmp-" + dead + "-901",  ".p.skynnet.tmp-12ab-0",
                                  ".q.skynnet.tmp-" + dead + "-0",    "p.skynnet",
                                  "p.skynnet.tmp-" + dead + "-0"};
        QStringList sorted = kept;
        sorted.sort();
        QCOMPARE(entries(d), sorted);
        QCOMPARE(readFile((d + "p.skynnet").toStdString()), std::string("new"));

        removeStaleTempFiles(dir.path().toStdString());  // the folder sweep also takes q's
        sorted.removeAll(".q.skynnet.tmp-" + dead + "-0");
        QCOMPARE(entries(d), sorted);
        ::close(locked);  // the writer elsewhere is gone too
        removeStaleTempFiles(d.toStdString());
        sorted.removeAll(".p.skynnet.tmp-" + dead + "-901");
        QCOMPARE(entries(d), sorted);
        removeStaleTempFiles(d.toStdString() + "missing");  // no folder: nothing to do, no error
    }

    void killedSavesKeepThePreviousFile_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("minimumSteps");
        QTest::addColumn<int>("writePiece");  // bytes a write step writes at most in the child
        // 50 or more moments to kill each save at: a large project in 1 MiB pieces; the smaller
        // files in smaller pieces, so they need not be large to give as many.
        QTest::newRow("project") << "project" << 2000 << 50 << (1 << 20);     // about 30 MB
        QTest::newRow("recovery") << "recovery" << 1200 << 50 << (96 << 10);  // about 6 MB
        QTest::newRow("combined") << "combined" << 1000 << 50 << (64 << 10);  // about 4 MB
        QTest::newRow("model") << "model" << 1000 << 50 << (64 << 10);
        QTest::newRow("onnx") << "onnx" << 1000 << 50 << (64 << 10);
        QTest::newRow("onnx-submodel") << "onnx-submodel" << 600 << 50 << (24 << 10);  // about 1.5 MB
        QTest::newRow("cpp") << "cpp" << 500 << 50 << (64 << 10);
    }

    void killedSavesKeepThePreviousFile() {
        QFETCH(QString, name);
        QFETCH(int, width);
        QFETCH(int, minimumSteps);
        QFETCH(int, writePiece);
        qputenv("SKYNNET_TEST_WRITE_PIECE", QByteArray::number(writePiece));  // the children inherit it
        if (name.startsWith("onnx") && !onnxExportAvailable()) QSKIP("built without the ONNX library");
#ifndef SAVE_CHILD_WRITES_RECOVERY
        if (name == "recovery") QSKIP("built without the UI: the app's recovery file is not built");
#endif
        const Format& f = format(name);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("refs") && QDir(dir.path()).mkdir("work"));
        const QString work = dir.filePath("work"), target = work + "/" + f.file;
        const std::string targetPath = target.toStdString();

        // The two versions, whole: the previous one (1) and the one being saved over it (2).
        saveInChild(f, 1, width, dir.filePath("refs/1"));
        saveInChild(f, 2, width, dir.filePath("refs/2"));
        const std::string previous = readFile(dir.filePath("refs/1").toStdString());
        const std::string next = readFile(dir.filePath("refs/2").toStdString());
        QVERIFY(previous != next);
        writeFileAtomically(targetPath, previous);
        const FullSave full = saveInChild(f, 2, width, target);  // counts the calls of a save over a file
        QCOMPARE(readFile(targetPath), next);
        QVERIFY2(full.steps >= minimumSteps, qPrintable(QString::number(full.steps)));
        QVERIFY(full.rename > 2 && full.rename < full.steps);

        // Both versions open; after each kill the file is exactly one of them, so it opens too.
        for (const char* ref : {"refs/1", "refs/2"}) {
            const std::string readError = errorOf([&] { f.read(dir.filePath(ref).toStdString()); });
            QVERIFY2(readError == "(no error)", readError.c_str());
        }
        std::string bytes;
        const auto check = [&](const std::string& when, bool renamed) {
            bytes = readFile(targetPath);
            QVERIFY2(renamed ? bytes == next : bytes == previous, (when + ": the file is neither version").c_str());
        };
        const auto restore = [&] {
            if (bytes != previous) writeFileAtomically(targetPath, previous);
            bytes = previous;
        };
        const QString tempPrefix = "." + f.file + ".tmp-";

        bytes = next;  // what the counting save left
        restore();
        for (int k = 1; k <= full.steps; ++k) {
            const std::string when = "killed before call " + std::to_string(k) + " of " + std::to_string(full.steps);
            Child c = spawnChild(f, 2, width, target, k);
            const int status = reap(c);
            QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, when.c_str());
            check(when, k > full.rename);
            // This save cleaned up what the one killed before it left; its own temporary file
            // stays only if it was killed between creating it and the rename.
            QStringList expected = {f.file};
            const QStringList now = entries(work);
            if (k > 1 && k <= full.rename) {
                QCOMPARE(now.size(), 2);
                QVERIFY2(now[0].startsWith(tempPrefix + QString::number(c.pid) + "-"), qPrintable(now.join(", ")));
                QCOMPARE(now[1], f.file);
            } else {
                QCOMPARE(now, expected);
            }
            restore();
        }

        // Kills at moments in time spread over the save, between calls or inside one.
        const int timedKills = 8;
        for (int i = 0; i < timedKills; ++i) {
            const std::string when = "killed at moment " + std::to_string(i);
            Child c = spawnChild(f, 2, width, target, 0);
            readOutput(c, "saving\n");
            std::this_thread::sleep_for(std::chrono::duration<double>(full.seconds * (i + 0.5) / timedKills));
            ::kill(c.pid, SIGKILL);
            reap(c);
            bytes = readFile(targetPath);
            QVERIFY2(bytes == previous || bytes == next, (when + ": the file is neither version").c_str());
            const std::string readError = errorOf([&] { f.read(targetPath); });
            QVERIFY2(readError == "(no error)", (when + ": " + readError).c_str());
            QVERIFY2(entries(work).size() <= 2, qPrintable(entries(work).join(", ")));
            restore();
        }

        // The next save, whole, leaves the new file and nothing else.
        saveInChild(f, 2, width, target);
        QCOMPARE(readFile(targetPath), next);
        QCOMPARE(entries(work), QStringList{f.file});
    }
};

QTEST_APPLESS_MAIN(TstSaves)
#include "tst_saves.moc"
