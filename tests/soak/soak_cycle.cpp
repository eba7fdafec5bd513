#include "soak_cycle.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>
#include <QUndoStack>

#include "export/onnx_export.h"
#include "project/project_file.h"
#include "soak_checks.h"
#include "soak_inject.h"
#include "spec/network_spec.h"
#include "split/split_plan.h"
#include "tests/ui/class_groups_setup.h"
#include "ui/core/autosave.h"
#include "ui/core/project_document.h"
#include "ui/core/project_io.h"
#include "ui/core/training_session.h"

namespace soak {

using namespace skynnet;
using namespace skynnet::ui;

namespace {

constexpr int runTimeoutMs = 600'000;  // a sanitized run on a loaded machine: far above what one takes

QString basePath(const Fixture& f) { return f.path(QStringLiteral("base/base.skynnet")); }

int epochsDone(const TrainingSession& s) {
    int n = int(s.baseline().epochs.size());
    for (const auto& m : s.submodels()) n += int(m.epochs.size());
    return n;
}

void pauseBriefly(Fixture& f, int ms) {
    bool over = false;
    QTimer::singleShot(ms, [&over] { over = true; });
    f.waitUntil([&] { return over; }, ms + 60'000, QStringLiteral("a timer"));
}

// Another seed for the training, as a spin box edit, then undone and redone.
void changeSetting(Fixture& f, int cycle) {
    ProjectDocument& doc = f.document();
    const ProjectTraining before = doc.trainSettings();
    ProjectTraining t = before;
    t.config.seed = std::uint64_t(cycle) + 1;
    doc.editTrainSettings(t);
    doc.sealEdits();
    expect(doc.isModified(), QStringLiteral("an edited project is not modified"));
    doc.undoStack()->undo();
    expect(doc.trainSettings() == before && !doc.isModified(), QStringLiteral("undo did not restore the settings"));
    doc.undoStack()->redo();
    expect(doc.trainSettings() == t, QStringLiteral("redo did not set the seed again"));
}

// Start, pause at once, check nothing trains while paused, resume, stop after the first epoch,
// then "Resume run" from the checkpoint to the end.
void train(Fixture& f) {
    TrainingSession& s = f.session();
    int before = f.finishedCount();
    bool stopSent = false;
    f.onEpochDone = [&] {
        if (stopSent) return;
        stopSent = true;
        s.stop();
    };
    s.start();
    expect(s.running(), QStringLiteral("the run did not start: ") + f.lastMessage());
    s.pause();
    expect(s.paused(), QStringLiteral("pause did not take"));
    pauseBriefly(f, 60);
    const int pausedEpochs = epochsDone(s);
    pauseBriefly(f, 60);
    expect(epochsDone(s) == pausedEpochs, QStringLiteral("epochs went on while paused"));
    s.resume();
    expect(!s.paused(), QStringLiteral("resume did not take"));
    f.waitFinished(before, runTimeoutMs, QStringLiteral("the stopped run to end"));
    f.onEpochDone = nullptr;
    if (f.lastStatus() == TrainStatus::Completed) {  // it ended before the stop reached it
        ++f.tally().stopsTooLate;
        return;
    }
    expect(f.lastStatus() == TrainStatus::Cancelled, QStringLiteral("the stopped run ended: ") + f.lastMessage());
    expect(s.canResumeRun(), QStringLiteral("a stopped run cannot be resumed"));
    const QString checkpoint = s.checkpointFolder();
    expect(QDir(checkpoint).exists(), checkpoint + QStringLiteral(" is missing after the stop"));

    before = f.finishedCount();
    s.startResumed();
    f.waitFinished(before, runTimeoutMs, QStringLiteral("the resumed run to end"));
    expect(f.lastStatus() == TrainStatus::Completed, QStringLiteral("the resumed run ended: ") + f.lastMessage());
    expect(!s.canResumeRun(), QStringLiteral("a completed run can still be resumed"));
    expect(!QDir(checkpoint).exists(), checkpoint + QStringLiteral(" is left after the run completed"));
    expect(s.results() && s.results()->model, QStringLiteral("the completed run has no model"));
}

// The recovery file of the modified project, written on the autosave's worker, opens and holds
// the document's settings and runs; a save then discards it.
QString autosave(Fixture& f) {
    Autosave& a = f.autosave();
    QString error;
    QObject guard;
    QObject::connect(&a, &Autosave::failed, &guard, [&error](const QString& message) { error = message; });
    expect(f.document().isModified(), QStringLiteral("a trained project is not modified"));
    expect(a.saveNow(), QStringLiteral("the autosave did not start"));
    a.waitForSave();
    expect(error.isEmpty(), QStringLiteral("the autosave failed: ") + error);
    const QString recovery = a.recoveryPath();
    try {
        const ProjectData read = loadProject(recovery.toStdString());
        ++f.tally().projectsOpened;
        expect(read.runs.size() == f.document().runs().size() && read.training == f.document().trainSettings() &&
                   read.network == f.document().network(),
               recovery + QStringLiteral(" does not hold the document's state"));
    } catch (const std::exception& e) {
        throw Failure{QStringLiteral("the recovery file does not open: ") + QString::fromUtf8(e.what())};
    }
    return recovery;
}

void save(Fixture& f, const QString& recovery) {
    ProjectDocument& doc = f.document();
    const QString path = projectPath(f);
    try {
        saveProjectFile(path, doc, f.session());
    } catch (const std::exception& e) {
        throw Failure{QStringLiteral("the save failed: ") + QString::fromUtf8(e.what())};
    }
    doc.setFilePath(path);
    doc.setClean();
    f.autosave().discard();  // as the app does after a save
    expect(!QFile::exists(recovery), recovery + QStringLiteral(" is left after the save"));
    checkSavedProject(path, f, f.path(QStringLiteral("check")));
}

void exportOnnxFile(Fixture& f) {
    if (!onnxExportAvailable()) return;
    const QString path = f.path(QStringLiteral("export/soak.onnx"));
    QDir().mkpath(QFileInfo(path).absolutePath());
    try {
        exportOnnx(*f.session().results()->model, path.toStdString());
    } catch (const std::exception& e) {
        throw Failure{QStringLiteral("the ONNX export failed: ") + QString::fromUtf8(e.what())};
    }
    checkOnnxFile(path, "probabilities");
    ++f.tally().onnxChecked;
}

void reopen(Fixture& f) {
    const ProjectData saved = loadProject(projectPath(f).toStdString());
    openProject(f, projectPath(f));
    const ProjectDocument& doc = f.document();
    expect(!doc.isModified(), QStringLiteral("a reopened project is modified"));
    expect(doc.network() == saved.network && doc.splitOptions() == saved.split &&
               doc.trainSettings() == saved.training && doc.runs().size() == saved.runs.size(),
           QStringLiteral("the reopened project differs from its file"));
    expect(f.session().results() != nullptr, QStringLiteral("the reopened project does not show its completed run"));
}

// Nothing half written anywhere under the soak's folder, and the project's folder holds only it.
void checkNoLeftovers(Fixture& f) {
    const QStringList temps = temporaryFilesUnder(f.folder());
    f.tally().tempFilesFound += int(temps.size());
    for (const QString& t : temps) QFile::remove(t);  // counted once
    expect(temps.isEmpty(), QStringLiteral("temporary files left: ") + temps.join(QStringLiteral(", ")));
    const QStringList inProject = QDir(QFileInfo(projectPath(f)).absolutePath())
                                      .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    expect(inProject == QStringList{QStringLiteral("soak.skynnet")},
           QStringLiteral("the project's folder holds ") + inProject.join(QStringLiteral(", ")));
}

}  // namespace

QString projectPath(const Fixture& f) { return f.path(QStringLiteral("project/soak.skynnet")); }

void prepareBaseProject(Fixture& f) {
    ProjectDocument& doc = f.document();
    // The session tests' project (class groups into 3, 2 threads), without their baseline.
    configureClassGroups(doc, QStringLiteral("builtin:blobs:samples=3000:classes=6:features=8:noise=0.8"), 8,
                         "dense:32:relu");
    ProjectTraining t = doc.trainSettings();
    t.config.batchSize = 32;
    t.trainBaseline = false;
    doc.setTrainSettings(t);
    QDir().mkpath(QFileInfo(basePath(f)).absolutePath());
    QDir().mkpath(QFileInfo(projectPath(f)).absolutePath());
    saveProjectFile(basePath(f), doc, f.session());
}

void openProject(Fixture& f, const QString& path) {
    try {
        OpenedProject opened = openProjectData(loadProject(path.toStdString()), true);
        expect(opened.dataProblem.isEmpty(), path + QStringLiteral(": its data did not load: ") + opened.dataProblem);
        applyProject(f.document(), f.session(), opened, path);
    } catch (const std::exception& e) {
        throw Failure{QStringLiteral("cannot open %1: %2").arg(path, QString::fromUtf8(e.what()))};
    }
    ++f.tally().projectsOpened;
}

void runCycle(Fixture& f, int cycle, bool inject) {
    const QString path = projectPath(f);
    QFile::remove(path);
    expect(QFile::copy(basePath(f), path), QStringLiteral("cannot copy the base project to ") + path);
    openProject(f, path);
    changeSetting(f, cycle);
    train(f);
    const QString recovery = autosave(f);
    save(f, recovery);
    exportOnnxFile(f);
    reopen(f);
    if (inject && cycle % injectEvery == 1) injectFullDisk(f);
    if (inject && cycle % injectEvery == 3) injectKilledChild(f);
    checkNoLeftovers(f);
}

void recover(Fixture& f) {
    f.onEpochDone = nullptr;
    if (f.session().running()) {
        f.session().stop();
        f.session().waitForFinished();
    }
    f.autosave().waitForSave();
    f.autosave().discard();
    clearInjections(f);
}

}  // namespace soak
