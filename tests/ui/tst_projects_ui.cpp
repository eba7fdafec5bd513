// Projects in the desktop app, offscreen: build a project in one window (data, network, split,
// training, a quick run), save it and open it in a fresh window, where every page and the trained
// model must be as they were; a moved or changed dataset; undo/redo of the designer, the split
// planner and the training settings; spin-box merging; autosave and recovery; the unsaved-changes
// question; the export dialog. Every question a dialog would ask is answered by the test.
#include <QAbstractButton>
#include <QAbstractItemModel>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <cerrno>
#include <cstring>

#include "export/onnx_export.h"
#include "io/atomic_file.h"
#include "io/file_faults.h"
#include "split/combined_model_file.h"
#include "test_shots.h"
#include "test_support.h"
#include "train/metrics.h"
#include "ui/core/app_settings.h"
#include "ui/core/autosave.h"
#include "ui/core/layer_table_model.h"
#include "ui/core/project_document.h"
#include "ui/core/project_io.h"
#include "ui/core/run_list_model.h"
#include "ui/core/training_session.h"
#include "ui/widgets/data_options_panel.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/live_chart.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/network_page.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/results_page.h"
#include "ui/widgets/run_history_panel.h"
#include "ui/widgets/split_page.h"
#include "ui/widgets/train_page.h"
#include "ui/widgets/training_charts.h"
#include "window_open.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

// What the prompts were asked, and how they answer.
struct Answers {
    int unsavedAsked = 0;
    QMessageBox::StandardButton unsaved = QMessageBox::Discard;
    int stopAsked = 0;
    QMessageBox::StandardButton stop = QMessageBox::Cancel;
    QString stopAction;  // what the last question asked to do
    QStringList locateProblems;
    QString locateWith;  // empty: open without the data
    QString chooseFile;  // for Save As
    int recoveryOffered = 0;
    bool recover = true;
    QStringList errors;
};

bool sameBits(const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0;
}

// For results computed by another build (the example project was saved by a -march=native build on
// some other CPU: other kernels, other FMA contraction): close values and the same predicted classes.
bool closeWithSameClasses(const Matrix& now, const Matrix& stored, float tolerance) {
    return now.rows() == stored.rows() && now.cols() == stored.cols() &&
           (now.size() == 0 || (now - stored).cwiseAbs().maxCoeff() <= tolerance) &&
           predictedClasses(now) == predictedClasses(stored);
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Every cell's display text, row by row.
QStringList cells(const QAbstractItemModel* m) {
    QStringList out;
    for (int r = 0; r < m->rowCount(); ++r)
        for (int c = 0; c < m->columnCount(); ++c) out << m->index(r, c).data().toString();
    return out;
}

QList<QPointF> points(LiveChart* chart, int id) {
    QLineSeries* s = chart->series(id);
    return s ? s->points() : QList<QPointF>();
}

// A disk that fills up at the third write of every save.
int diskFullAtThirdWrite(SaveStep step, int index, const char*) {
    return step == SaveStep::Write && index == 2 ? ENOSPC : 0;
}

QStringList hiddenFiles(const QString& dir) {
    return QDir(dir).entryList({QStringLiteral(".*")}, QDir::Files | QDir::Hidden | QDir::System);
}

// The combined model's outputs on the prepared test rows.
Matrix testPredictions(MainWindow* w) {
    CombinedModel model = buildCombinedModel(*w->session()->results()->model);
    return model.predict(w->document()->prepared()->test.features);
}

}  // namespace

class TestProjectsUi : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString csv_, project_;
    Matrix predictionsBefore_;
    QStringList comparisonBefore_, epochsBefore_;
    std::map<int, QList<QPointF>> metricPointsBefore_;

    std::unique_ptr<MainWindow> makeWindow(Answers& a) {
        auto w = std::make_unique<MainWindow>(
            std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("settings.ini"))));
        ProjectController::Prompts& p = w->projectController()->prompts();
        p.unsavedChanges = [&a](const QString&) {
            ++a.unsavedAsked;
            return a.unsaved;
        };
        p.stopTraining = [&a](const QString&, const QString& action) {
            ++a.stopAsked;
            a.stopAction = action;
            return a.stop;
        };
        p.locateData = [&a](const QString& problem, const QString&) {
            a.locateProblems << problem;
            return a.locateWith;
        };
        p.chooseProjectFile = [&a](bool, const QString&) { return a.chooseFile; };
        p.restoreRecovery = [&a](const QString&, const QString&) {
            ++a.recoveryOffered;
            return a.recover;
        };
        p.showError = [&a](const QString&, const QString& message) { a.errors << message; };
        w->projectController()->autosave()->setDirectory(dir_.filePath(QStringLiteral("recovery")));
        w->resize(1280, 860);
        w->show();
        return w;
    }

    static void loadCsv(MainWindow* w, const QString& path) {
        w->dataPage()->loadFile(path);
        QVERIFY(w->dataPage()->waitForLoad(30000));
    }

    static void quickSettings(ProjectDocument* doc) {
        ProjectTraining t = doc->trainSettings();
        t.config.epochs = 12;
        t.config.batchSize = 16;
        t.config.optimizer.learningRate = 0.01f;
        t.config.resourceReportSeconds = 0.01;
        t.config.batchReportSeconds = 0.01;
        t.threadBudget = 2;
        t.trainBaseline = true;
        doc->setTrainSettings(t);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("data")));
        csv_ = dir_.filePath(QStringLiteral("data/iris.csv"));
        QVERIFY(QFile::copy(QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/iris.csv"), csv_));
        project_ = dir_.filePath(QStringLiteral("iris.skynnet"));
        // The trained, saved project every other test opens: made here, so each test also runs alone.
        trainAndSaveProject();
    }

private:
    void trainAndSaveProject() {
        Answers a;
        auto w = makeWindow(a);
        loadCsv(w.get(), csv_);
        ProjectDocument* doc = w->document();
        NetworkSpec net = doc->network();
        net.layers = parseLayers("dense:24:relu,dense:12:tanh");
        doc->editNetwork(net);
        w->splitPage()->setStrategy(Strategy::ClassGroups);
        w->splitPage()->setSubmodels(3);
        quickSettings(doc);
        QVERIFY(!w->projectController()->exportAction()->isEnabled());  // nothing trained yet

        // Two runs: the first is kept for its curves when the second replaces it in the session.
        QSignalSpy finished(w->session(), &TrainingSession::finished);
        for (int run = 1; run <= 2; ++run) {
            w->trainPage()->startTraining();
            QTRY_VERIFY_WITH_TIMEOUT(finished.count() == run, hangGuardMs(60000));
            QCOMPARE(finished.at(run - 1).at(0).value<TrainStatus>(), TrainStatus::Completed);
        }
        QCOMPARE(doc->earlierRuns().size(), std::size_t(1));
        QVERIFY(doc->isModified());  // a trained model is a change to save
        QVERIFY(w->projectController()->exportAction()->isEnabled());

        predictionsBefore_ = testPredictions(w.get());
        comparisonBefore_ = cells(w->resultsPage()->comparisonTable()->model());
        epochsBefore_ = cells(w->trainPage()->epochTable()->model());
        LiveChart* metric = w->trainPage()->charts()->metricChart();
        for (int id = -1; id < 3; ++id) metricPointsBefore_[id] = points(metric, id);
        QVERIFY(!metricPointsBefore_[-1].isEmpty());

        w->showPage(MainWindow::SplitPageIndex);
        QVERIFY(w->projectController()->saveTo(project_));
        QVERIFY(!doc->isModified());
        QCOMPARE(doc->filePath(), project_);
        QVERIFY(w->windowTitle().startsWith(QStringLiteral("iris.skynnet")));
        QCOMPARE(w->settings()->recentProjects().value(0), project_);
        const ProjectData saved = loadProject(project_.toStdString());
        QCOMPARE(saved.runs.size(), std::size_t(2));
        // Every run keeps its trained weights (issue 12: a run's weights are dropped only on request).
        QVERIFY(saved.runs[0].results && saved.runs[0].results->model && saved.runs[0].results->baselineWeights);
        QVERIFY(saved.runs[1].results && saved.runs[1].results->model && saved.runs[1].results->baselineWeights);
        QVERIFY(w->close());
        QCOMPARE(a.unsavedAsked, 0);  // saved: nothing to ask
    }

    // The loss chart's points once the saved project is open.
    int lossPointsAfterOpen() {
        Answers a;
        auto w = makeWindow(a);
        if (!openAndWait(w.get(), project_)) return -1;
        return w->trainPage()->charts()->lossChart()->pointCount();
    }

private slots:
    void reopenRestoresEveryPage() {
        Answers a;
        auto w = makeWindow(a);
        QVERIFY(openAndWait(w.get(), project_));
        QVERIFY(a.locateProblems.isEmpty());
        QVERIFY(a.errors.isEmpty());
        ProjectDocument* doc = w->document();
        QVERIFY(doc->hasData());
        QVERIFY(!doc->isModified());
        QVERIFY(w->dataPage()->errorText().isEmpty());
        QCOMPARE(w->currentPage(), int(MainWindow::SplitPageIndex));

        // Network, split and training settings, in the document and on the pages.
        QCOMPARE(doc->network().layers, parseLayers("dense:24:relu,dense:12:tanh"));
        QCOMPARE(w->networkPage()->layerModel()->layerCount(), 2);
        QCOMPARE(w->networkPage()->layerModel()->index(0, LayerTableModel::Units).data().toInt(), 24);
        const QList<QWidget*> options = w->splitPage()->optionWidgets();
        QCOMPARE(Strategy(qobject_cast<QComboBox*>(options[0])->currentData().toInt()), Strategy::ClassGroups);
        QCOMPARE(qobject_cast<QSpinBox*>(options[1])->value(), 3);
        QCOMPARE(w->trainPage()->epochsBox()->value(), 12);
        QCOMPARE(w->trainPage()->batchBox()->value(), 16);
        QCOMPARE(w->trainPage()->threadsBox()->value(), 2);
        QVERIFY(w->trainPage()->baselineBox()->isChecked());
        QCOMPARE(doc->trainSettings().config.resourceReportSeconds, 0.01);

        QCOMPARE(doc->earlierRuns().size(), std::size_t(1));
        QCOMPARE(doc->earlierRuns()[0].submodels[0].epochs.size(), std::size_t(10));  // ceil(12 / sqrt(1.5))

        // Results, the epoch table and the charts of the past run.
        QVERIFY(w->resultsPage()->hasResults());
        QCOMPARE(cells(w->resultsPage()->comparisonTable()->model()), comparisonBefore_);
        QCOMPARE(cells(w->trainPage()->epochTable()->model()), epochsBefore_);
        TrainingCharts* charts = w->trainPage()->charts();
        QCOMPARE(charts->metricChart()->seriesCount(), 4);
        for (const auto& [id, before] : metricPointsBefore_) QCOMPARE(points(charts->metricChart(), id), before);
        QVERIFY(charts->lossChart()->pointCount() >= 3 * 12);
        QVERIFY(charts->memoryChart()->pointCount() > 0);
        w->showPage(MainWindow::TrainPageIndex);
        shoot(w.get(), QStringLiteral("reopened-train"));
        w->showPage(MainWindow::ResultsPageIndex);
        shoot(w.get(), QStringLiteral("reopened-results"));

        // The trained model predicts exactly as before, bit for bit.
        QVERIFY(sameBits(testPredictions(w.get()), predictionsBefore_));
        QVERIFY(w->projectController()->exportAction()->isEnabled());
        QVERIFY(w->close());
        QCOMPARE(a.unsavedAsked, 0);
    }

    void exportDialogWritesEveryFormat() {
        Answers a;
        auto w = makeWindow(a);
        QVERIFY(openAndWait(w.get(), project_));
        const auto model = w->session()->results()->model;
        QVERIFY(model);
        ExportDialog dialog(*model, dir_.filePath(QStringLiteral("out/iris")));
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("out")));
        QCOMPARE(dialog.path(), dir_.filePath(QStringLiteral("out/iris.skym")));  // the model suffix, not the project's
        QVERIFY(dialog.exportNow());
        const SavedCombinedModel reread = loadCombinedModel(dialog.path().toStdString());
        CombinedModel built = buildCombinedModel(reread);
        QVERIFY(sameBits(built.predict(w->document()->prepared()->test.features), predictionsBefore_));

        dialog.setFormat(ExportDialog::CppHeader);
        QCOMPARE(dialog.path(), dir_.filePath(QStringLiteral("out/iris.h")));
        // Only this format's options are shown: the ONNX boxes are hidden, not greyed and ticked.
        dialog.show();
        const auto shownBoxes = [&dialog] {
            QStringList shown;
            for (const QCheckBox* box : dialog.findChildren<QCheckBox*>())
                if (box->isVisible()) shown << box->text();
            return shown;
        };
        QVERIFY2(shownBoxes().isEmpty(), qPrintable(shownBoxes().join(", ")));
        const auto shownLines = [&dialog] {
            int shown = 0;
            for (const QLineEdit* line : dialog.findChildren<QLineEdit*>()) shown += line->isVisible() ? 1 : 0;
            return shown;
        };
        QCOMPARE(shownLines(), 2);  // the file and the namespace
        shoot(&dialog, QStringLiteral("export-cpp-header"));
        dialog.setCppNamespace(QStringLiteral("iris::model"));
        QVERIFY(dialog.exportNow());
        QFile header(dialog.path());
        QVERIFY(header.open(QIODevice::ReadOnly));
        QVERIFY(header.readAll().contains("namespace iris::model"));

        if (onnxExportAvailable()) {
            dialog.setFormat(ExportDialog::Onnx);
            QCOMPARE(shownBoxes().size(), 2);  // the preprocessing and each submodel
            QCOMPARE(shownLines(), 1);         // no namespace
            dialog.setEachSubmodel(true);
            QVERIFY2(dialog.exportNow(), qPrintable(dialog.statusText()));
            QCOMPARE(dialog.writtenFiles().size(), 1 + 3);
            for (const QString& f : dialog.writtenFiles()) QVERIFY2(QFile::exists(f), qPrintable(f));
            QVERIFY(QFile::exists(dir_.filePath(QStringLiteral("out/iris-sub3.onnx"))));
        }

        // An error stays in the dialog.
        dialog.setFormat(ExportDialog::NativeModel);
        dialog.setPath(dir_.filePath(QStringLiteral("no/such/folder/m.skynnet")));
        QVERIFY(!dialog.exportNow());
        QVERIFY2(dialog.statusText().startsWith(QStringLiteral("Export failed: cannot save")),
                 qPrintable(dialog.statusText()));
        if (!qEnvironmentVariable("SKYNNET_TEST_SHOTS").isEmpty()) {
            dialog.show();
            shoot(&dialog, QStringLiteral("export-dialog"));
            for (QMenu* m : w->menuBar()->findChildren<QMenu*>(QString(), Qt::FindDirectChildrenOnly)) {
                if (m->title() != QStringLiteral("&File") && m->title() != QStringLiteral("&Edit")) continue;
                m->popup(w->mapToGlobal(QPoint(10, 30)));
                shoot(m, QStringLiteral("menu-") + m->title().mid(1));
                m->hide();
            }
            w->historyDock()->show();
            shoot(w.get(), QStringLiteral("window-after-open"));
        }
        w->close();
    }

    // A save that fails (the disk is full) says which file and why, keeps the previous file as
    // it was and the document unsaved; so does an export over an earlier one.
    void failedSaveKeepsThePreviousFile() {
        Answers a;
        auto w = makeWindow(a);
        QVERIFY(openAndWait(w.get(), project_));
        w->trainPage()->epochsBox()->setValue(w->trainPage()->epochsBox()->value() + 1);
        QVERIFY(w->document()->isModified());
        const std::string before = readFile(project_.toStdString());
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("out")));
        const QString exported = dir_.filePath(QStringLiteral("out/failing.skym"));  // the native export's suffix
        ExportDialog dialog(*w->session()->results()->model, dir_.filePath(QStringLiteral("out/failing")));
        QVERIFY2(dialog.exportNow(), qPrintable(dialog.statusText()));
        const std::string exportedBefore = readFile(exported.toStdString());

        setSaveFaultHook(diskFullAtThirdWrite);
        const bool saved = w->projectController()->save();
        const bool exportedAgain = dialog.exportNow();
        setSaveFaultHook(nullptr);

        QVERIFY(!saved);
        QCOMPARE(a.errors, QStringList{QStringLiteral("cannot save %1: No space left on device").arg(project_)});
        QVERIFY(readFile(project_.toStdString()) == before);
        QVERIFY(w->document()->isModified());
        QCOMPARE(w->document()->filePath(), project_);
        QVERIFY(!exportedAgain);
        QCOMPARE(dialog.statusText(),
                 QStringLiteral("Export failed: cannot save %1: No space left on device").arg(exported));
        QVERIFY(readFile(exported.toStdString()) == exportedBefore);
        QCOMPARE(hiddenFiles(dir_.path()), QStringList{});  // no temporary file left
        QCOMPARE(hiddenFiles(dir_.filePath(QStringLiteral("out"))), QStringList{});
        a.unsaved = QMessageBox::Discard;
        QVERIFY(w->close());
    }

    // The example in resources/projects opens with its data, and its model predicts what it did.
    // It opens as an untitled copy (installed, it is every user's file): Save asks where, and it
    // is no recent project. Its runs say when they ran and with which settings.
    void exampleProjectOpens() {
        Answers a;
        auto w = makeWindow(a);
        const QString example = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/projects/wine-class-groups.skynnet");
        const QByteArray before = fileBytes(example);
        QVERIFY(openAndWait(w.get(), example));
        QVERIFY2(a.locateProblems.isEmpty(),
                 qPrintable(QStringLiteral("the example's data changed; save the example again: ") +
                            a.locateProblems.value(0)));
        QVERIFY(w->document()->hasData());
        QVERIFY(w->resultsPage()->hasResults());
        QCOMPARE(w->currentPage(), int(MainWindow::ResultsPageIndex));
        // Stored by another build: within float noise of this build's arithmetic, never bit for bit.
        QVERIFY(w->session()->results()->combinedTestOutput.rows() > 0);
        QVERIFY(closeWithSameClasses(testPredictions(w.get()), w->session()->results()->combinedTestOutput, 1e-4f));

        QVERIFY(w->document()->filePath().isEmpty());
        QVERIFY(w->windowTitle().startsWith(QStringLiteral("Untitled[*]")));
        QVERIFY(!w->document()->isModified());  // the same as the example on disk
        QVERIFY(!w->settings()->recentProjects().contains(QFileInfo(example).absoluteFilePath()));
        const QAbstractItemModel* runs = w->resultsPage()->runHistory()->model();
        QVERIFY(runs->rowCount() > 0);
        for (int r = 0; r < runs->rowCount(); ++r)
            for (int c = 0; c < runs->columnCount(); ++c)
                QVERIFY2(!runs->index(r, c).data().toString().contains(QStringLiteral("not recorded")),
                         qPrintable(runs->index(r, c).data().toString()));
        // Save asks where: cancelled, nothing is written; given a file, the copy goes there.
        a.chooseFile.clear();
        QVERIFY(!w->projectController()->save());
        a.chooseFile = dir_.filePath(QStringLiteral("my-wine"));
        QVERIFY(w->projectController()->save());
        QCOMPARE(w->document()->filePath(), dir_.filePath(QStringLiteral("my-wine.skynnet")));
        QCOMPARE(fileBytes(example), before);
        QVERIFY(w->close());
        // The copy finds the example's data from where it was saved.
        auto again = makeWindow(a);
        QVERIFY(openAndWait(again.get(), dir_.filePath(QStringLiteral("my-wine.skynnet"))));
        QVERIFY(again->document()->hasData());
        QVERIFY(a.locateProblems.isEmpty());
        QVERIFY(again->close());
    }

    void movedDatasetIsDetected() {
        const int lossPoints = lossPointsAfterOpen();
        QVERIFY(lossPoints > 0);
        const QString moved = dir_.filePath(QStringLiteral("data/iris-moved.csv"));
        QVERIFY(QFile::rename(csv_, moved));
        {
            Answers a;  // the user does not know where it went
            auto w = makeWindow(a);
            QVERIFY(openAndWait(w.get(), project_));
            QCOMPARE(a.locateProblems.size(), 1);
            QVERIFY2(a.locateProblems[0].contains(QStringLiteral("was not found")), qPrintable(a.locateProblems[0]));
            ProjectDocument* doc = w->document();
            QVERIFY(!doc->hasData());
            QCOMPARE(QString::fromStdString(doc->dataSettings().train.path), csv_);
            QVERIFY(w->dataPage()->errorText().contains(QStringLiteral("Locate Data")));
            QCOMPARE(w->currentPage(), int(MainWindow::DataPageIndex));
            QVERIFY(w->projectController()->locateDataAction()->isEnabled());
            // Nothing else is lost: network, split, settings, results and curves.
            QCOMPARE(doc->network().layers, parseLayers("dense:24:relu,dense:12:tanh"));
            QCOMPARE(doc->splitOptions().requested, 3);
            QCOMPARE(w->trainPage()->epochsBox()->value(), 12);
            QVERIFY(w->resultsPage()->hasResults());
            QCOMPARE(cells(w->resultsPage()->comparisonTable()->model()), comparisonBefore_);
            QCOMPARE(w->trainPage()->charts()->lossChart()->pointCount(), lossPoints);
            shoot(w.get(), QStringLiteral("moved-data"));

            // Locate Data… later: the data page loads it, the rest stays.
            a.locateWith = moved;
            QVERIFY(w->projectController()->locateData());
            QVERIFY(w->dataPage()->waitForLoad(30000));
            QVERIFY(doc->hasData());
            QVERIFY(w->dataPage()->errorText().isEmpty());
            QCOMPARE(doc->network().layers, parseLayers("dense:24:relu,dense:12:tanh"));
            QCOMPARE(doc->trainSettings().config.epochs, 12);
            QVERIFY(doc->isModified());  // the new location is to be saved
            a.unsaved = QMessageBox::Discard;
            QVERIFY(w->close());
            QCOMPARE(a.unsavedAsked, 1);
        }
        {
            Answers a;  // the user points to the moved file at once
            a.locateWith = moved;
            auto w = makeWindow(a);
            QVERIFY(openAndWait(w.get(), project_));
            QCOMPARE(a.locateProblems.size(), 1);
            QVERIFY(w->document()->hasData());
            QCOMPARE(QString::fromStdString(w->document()->dataSettings().train.path), moved);
            QVERIFY(w->document()->isModified());
            QVERIFY(sameBits(testPredictions(w.get()), predictionsBefore_));
        }
        QVERIFY(QFile::rename(moved, csv_));

        // Changed content is detected too; using it anyway is the user's choice.
        QFile f(csv_);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray original = f.readAll();
        f.close();
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(original + "5.0,3.0,1.5,0.2,setosa\n");
        f.close();
        {
            Answers a;
            a.locateWith = csv_;
            auto w = makeWindow(a);
            QVERIFY(openAndWait(w.get(), project_));
            QCOMPARE(a.locateProblems.size(), 1);
            QVERIFY2(a.locateProblems[0].contains(QStringLiteral("has changed")), qPrintable(a.locateProblems[0]));
            QVERIFY(w->document()->hasData());
            QCOMPARE(w->document()->dataset()->size(), Index(151));
        }
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(original);
        f.close();
    }

    // Opening returns at once and finishes on the GUI thread later; a second open supersedes the
    // first, whose late result is dropped.
    void openRunsInTheBackgroundAndIsSuperseded() {
        Answers a;
        auto w = makeWindow(a);
        ProjectController* pc = w->projectController();
        QSignalSpy finished(pc, &ProjectController::openFinished);
        QVERIFY(pc->openFile(project_));
        QVERIFY(pc->isOpening());
        QVERIFY(!w->document()->hasData());
        QVERIFY(w->document()->filePath().isEmpty());
        const QString example = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/projects/wine-class-groups.skynnet");
        QVERIFY(pc->openFile(example));
        QVERIFY(pc->waitForOpen());
        QTest::qWait(200);  // time for a late result of the first open to arrive, if it were not dropped
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(1).toString(), example);
        QVERIFY(w->document()->filePath().isEmpty());  // the example opens as an untitled copy
        QCOMPARE(w->document()->network().layers.size(), loadProject(example.toStdString()).network.layers.size());
        QVERIFY(a.errors.isEmpty());
        QVERIFY(w->close());
    }

    void openErrorsAreReportedAndChangeNothing() {
        Answers a;
        auto w = makeWindow(a);
        loadCsv(w.get(), csv_);
        const QString bad = dir_.filePath(QStringLiteral("not-a-project.skynnet"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name,value\n1,2\n");
        f.close();
        QVERIFY(!openAndWait(w.get(), bad));
        QCOMPARE(a.errors.size(), 1);
        QVERIFY2(a.errors[0].contains(QStringLiteral("is not a Skynnet project file")), qPrintable(a.errors[0]));
        QVERIFY(a.errors[0].contains(bad));
        QVERIFY(!w->projectController()->isOpening());
        QVERIFY(w->document()->hasData());
        QCOMPARE(QString::fromStdString(w->document()->dataSettings().train.path), csv_);
        QVERIFY(w->document()->filePath().isEmpty());
        QVERIFY(w->close());
    }

    // A window closed, or destroyed, while its project loads: the load is dropped, nothing crashes.
    void closingWhileOpening() {
        Answers a;
        {
            auto w = makeWindow(a);
            QVERIFY(w->projectController()->openFile(project_));
            QVERIFY(w->close());
            QVERIFY(!w->projectController()->isOpening());
            QTest::qWait(300);  // the workers end; what they read goes nowhere
            QVERIFY(!w->document()->hasData());
            QVERIFY(w->document()->filePath().isEmpty());
            QVERIFY(w->projectController()->openFile(project_));
        }  // destroyed mid-load
        QTest::qWait(300);
        QVERIFY(a.errors.isEmpty());
    }

    // The recovery file is written on a worker, one save at a time; a save or quit meanwhile
    // leaves no recovery file behind.
    void autosaveWritesOnAWorkerOneAtATime() {
        Answers a;
        auto w = makeWindow(a);
        loadCsv(w.get(), csv_);
        Autosave* autosave = w->projectController()->autosave();
        QSignalSpy saved(autosave, &Autosave::saved), failed(autosave, &Autosave::failed);
        w->trainPage()->epochsBox()->setValue(21);
        QVERIFY(autosave->saveNow());
        QVERIFY(autosave->isSaving());
        QVERIFY(!autosave->saveNow());  // never two at once
        autosave->waitForSave();
        QVERIFY(!autosave->isSaving());
        QCOMPARE(saved.count(), 1);
        const QString path = saved.at(0).at(0).toString();
        QCOMPARE(w->settings()->recoveryFile(), path);
        QCOMPARE(loadProject(path.toStdString()).training.config.epochs, 21);
        QTest::qWait(50);  // the queued finished signal finds the save reported already
        QCOMPARE(saved.count(), 1);

        // Discarded (the project was saved) while the next one is written: it goes once written.
        w->trainPage()->epochsBox()->setValue(22);
        QVERIFY(autosave->saveNow());
        autosave->discard();
        autosave->waitForSave();
        QCOMPARE(saved.count(), 1);
        QVERIFY(!QFile::exists(path));
        QVERIFY(w->settings()->recoveryFile().isEmpty());

        // Quitting while one is written waits for it, then discards it.
        w->trainPage()->epochsBox()->setValue(23);
        QVERIFY(autosave->saveNow());
        a.unsaved = QMessageBox::Discard;
        QVERIFY(w->close());
        QVERIFY(!autosave->isSaving());
        QVERIFY(!QFile::exists(path));
        QVERIFY(w->settings()->recoveryFile().isEmpty());
        QCOMPARE(failed.count(), 0);
    }

    void undoRedoEveryEditor() {
        Answers a;
        auto w = makeWindow(a);
        loadCsv(w.get(), csv_);
        ProjectDocument* doc = w->document();
        QUndoStack* stack = doc->undoStack();
        QCOMPARE(stack->count(), 0);
        QAction* undo = nullptr;
        for (QAction* act : w->findChildren<QAction*>())
            if (act->shortcut() == QKeySequence(QKeySequence::Undo)) undo = act;
        QVERIFY(undo);
        const std::vector<LayerSpec> layers = doc->network().layers;

        // Network designer: add, edit, remove, preset.
        NetworkPage* net = w->networkPage();
        net->addLayer();
        QCOMPARE(doc->network().layers.size(), layers.size() + 1);
        QCOMPARE(stack->undoText(), QStringLiteral("Add layer %1").arg(layers.size() + 1));
        undo->trigger();
        QCOMPARE(doc->network().layers, layers);
        QCOMPARE(net->layerModel()->layerCount(), int(layers.size()));
        stack->redo();
        QCOMPARE(doc->network().layers.size(), layers.size() + 1);
        QVERIFY(net->layerModel()->setData(net->layerModel()->index(0, LayerTableModel::Units), 48));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 units to 48"));
        QCOMPARE(std::get<DenseSpec>(doc->network().layers[0]).units, 48);
        stack->undo();
        QCOMPARE(std::get<DenseSpec>(doc->network().layers[0]).units, std::get<DenseSpec>(layers[0]).units);
        QCOMPARE(net->layerModel()->index(0, LayerTableModel::Units).data().toInt(),
                 std::get<DenseSpec>(layers[0]).units);
        net->table()->selectRow(0);
        net->removeLayer();
        QCOMPARE(stack->undoText(), QStringLiteral("Remove layer 1"));
        QCOMPARE(doc->network().layers.size(), layers.size());
        stack->undo();
        QCOMPARE(doc->network().layers.size(), layers.size() + 1);
        net->table()->selectRow(0);
        net->moveLayer(+1);
        QCOMPARE(stack->undoText(), QStringLiteral("Move layer 1 to 2"));
        stack->undo();
        net->applyPreset(2);
        QCOMPARE(doc->network().layers.size(), std::size_t(3));
        stack->undo();
        QCOMPARE(doc->network().layers.size(), layers.size() + 1);

        // Split planner: strategy and N.
        const SplitOptions split = doc->splitOptions();
        w->splitPage()->setStrategy(Strategy::DataShards);
        QCOMPARE(doc->splitOptions().strategy, Strategy::DataShards);
        w->splitPage()->setSubmodels(5);
        QCOMPARE(stack->undoText(), QStringLiteral("Set submodels N to 5"));
        stack->undo();
        QCOMPARE(doc->splitOptions().requested, split.requested);
        QCOMPARE(qobject_cast<QSpinBox*>(w->splitPage()->optionWidgets()[1])->value(), split.requested);
        stack->undo();
        QCOMPARE(doc->splitOptions().strategy, split.strategy);
        QCOMPARE(Strategy(qobject_cast<QComboBox*>(w->splitPage()->optionWidgets()[0])->currentData().toInt()),
                 split.strategy);
        stack->redo();
        QCOMPARE(doc->splitOptions().strategy, Strategy::DataShards);

        // Training settings: epochs, baseline.
        const int epochs = doc->trainSettings().config.epochs;
        w->trainPage()->epochsBox()->setValue(epochs + 7);
        QCOMPARE(stack->undoText(), QStringLiteral("Set epochs to %1").arg(epochs + 7));
        w->trainPage()->baselineBox()->setChecked(!doc->trainSettings().trainBaseline);
        stack->undo();
        stack->undo();
        QCOMPARE(doc->trainSettings().config.epochs, epochs);
        QCOMPARE(w->trainPage()->epochsBox()->value(), epochs);
        QVERIFY(doc->isModified());
        w->historyDock()->show();
        w->showPage(MainWindow::NetworkPageIndex);
        shoot(w.get(), QStringLiteral("undo-history"));
        while (stack->canUndo()) stack->undo();
        QVERIFY(stack->isClean());  // back where the edits began (the loaded data itself is unsaved)
        QCOMPARE(doc->network().layers, layers);
    }

    // The data page's options are undoable like the other pages' settings: typing "25" into the
    // validation box is one step named in the Edit menu, whose undo puts the box, the document
    // and the plan back; another target column (a reload) is a step too.
    void dataOptionsUndoInTheEditMenu() {
        Answers a;
        auto w = makeWindow(a);
        loadCsv(w.get(), csv_);
        ProjectDocument* doc = w->document();
        QUndoStack* stack = doc->undoStack();
        QAction* undo = nullptr;
        for (QAction* act : w->findChildren<QAction*>())
            if (act->shortcut() == QKeySequence(QKeySequence::Undo)) undo = act;
        QVERIFY(undo);
        QVERIFY(!undo->isEnabled());
        w->showPage(MainWindow::DataPageIndex);
        DataOptionsPanel* panel = w->dataPage()->optionsPanel();
        const ProjectDataSource original = doc->dataSettings();
        const SplitPlan planBefore = doc->plan();
        const quint64 revision = doc->dataRevision();

        QDoubleSpinBox* validation = panel->validationBox();
        validation->setFocus();
        validation->selectAll();
        QTest::keyClicks(validation, QStringLiteral("25"));
        QCOMPARE(doc->dataSettings().validationFraction, 0.25);
        QCOMPARE(stack->count(), 1);  // "2", "25": one step
        QCOMPARE(undo->text(), QStringLiteral("&Undo Set validation fraction to 0.25"));
        QVERIFY(doc->dataRevision() != revision);
        QVERIFY(doc->plan().samples < planBefore.samples);
        shoot(w.get(), QStringLiteral("undo-data-option"));
        QTest::keyClick(validation, Qt::Key_Return);  // ends the step
        QCOMPARE(panel->seedBox()->value(), int(original.seed));
        panel->seedBox()->setValue(5);
        QCOMPARE(stack->count(), 2);
        QCOMPARE(undo->text(), QStringLiteral("&Undo Set data split seed to 5"));

        undo->trigger();
        undo->trigger();
        QVERIFY(doc->dataSettings() == original);
        QCOMPARE(validation->value(), original.validationFraction * 100);
        QCOMPARE(panel->seedBox()->value(), int(original.seed));
        const SplitPlan planAfter = doc->plan();
        QCOMPARE(planAfter.samples, planBefore.samples);
        for (int i = 0; i < planBefore.submodelCount(); ++i)
            QCOMPARE(planAfter.submodels[std::size_t(i)].rows, planBefore.submodels[std::size_t(i)].rows);
        QVERIFY(stack->isClean());

        // Another target column: petal width, a number, makes it a regression.
        const auto irisData = doc->dataset();
        QComboBox* target = panel->targetColumnBox();
        const int petalWidth = target->findData(QStringLiteral("petal_width"));
        QVERIFY(petalWidth > 0);
        target->setCurrentIndex(petalWidth);
        emit target->activated(petalWidth);  // as a user's choice
        QVERIFY(w->dataPage()->waitForLoad(30000));
        QCOMPARE(doc->dataset()->task, Task::Regression);
        QCOMPARE(stack->undoText(), QStringLiteral("Set target column to petal_width"));
        QCOMPARE(doc->trainSettings().config.loss, LossKind::MeanSquaredError);
        undo->trigger();
        QCOMPARE(doc->dataset(), irisData);
        QCOMPARE(doc->trainSettings().config.loss, LossKind::SoftmaxCrossEntropy);
        QCOMPARE(doc->network().outputs, 3);
        QCOMPARE(target->currentIndex(), 0);  // the last column again
        QVERIFY(stack->isClean());
    }

    void spinBoxEditsMerge() {
        Answers a;
        auto w = makeWindow(a);
        loadCsv(w.get(), csv_);
        ProjectDocument* doc = w->document();
        QUndoStack* stack = doc->undoStack();
        QSpinBox* epochs = w->trainPage()->epochsBox();
        w->showPage(MainWindow::TrainPageIndex);
        const int original = epochs->value();
        const int before = stack->count();
        epochs->setFocus();
        epochs->selectAll();
        QTest::keyClicks(epochs, QStringLiteral("512"));
        QCOMPARE(doc->trainSettings().config.epochs, 512);
        QCOMPARE(stack->count(), before + 1);  // 5, 51, 512: one step
        QCOMPARE(stack->undoText(), QStringLiteral("Set epochs to 512"));
        QTest::keyClick(epochs, Qt::Key_Return);  // ends the step
        epochs->selectAll();
        QTest::keyClicks(epochs, QStringLiteral("20"));
        QCOMPARE(stack->count(), before + 2);
        stack->undo();
        QCOMPARE(doc->trainSettings().config.epochs, 512);
        stack->undo();
        QCOMPARE(doc->trainSettings().config.epochs, original);

        // Typing back to where it was leaves no step at all.
        epochs->selectAll();
        QTest::keyClicks(epochs, QStringLiteral("9"));
        epochs->selectAll();
        QTest::keyClicks(epochs, QString::number(original));
        QCOMPARE(doc->trainSettings().config.epochs, original);
        QCOMPARE(stack->count(), before);
    }

    void autosaveWritesARecoveryFileThatOpens() {
        QString recovery;
        {
            Answers a;
            auto w = makeWindow(a);
            loadCsv(w.get(), csv_);
            w->trainPage()->epochsBox()->setValue(33);
            QVERIFY(w->document()->isModified());
            Autosave* autosave = w->projectController()->autosave();
            // Left by a save killed in an earlier session, under another project name: pid
            // 999999999 is beyond any pid_max, so its process cannot exist.
            QVERIFY(QDir().mkpath(autosave->directory()));
            const QString stale = autosave->directory() + QStringLiteral("/.old.recovery.skynnet.tmp-999999999-0");
            writeFileAtomically(stale.toStdString(), "half a project");
            QSignalSpy saved(autosave, &Autosave::saved);
            autosave->setIntervalMilliseconds(100);
            QTRY_VERIFY_WITH_TIMEOUT(saved.count() > 0, hangGuardMs(5000));
            recovery = saved.at(0).at(0).toString();
            QVERIFY(QFile::exists(recovery));
            QCOMPARE(w->settings()->recoveryFile(), recovery);
            QVERIFY(!QFile::exists(stale));
            autosave->setIntervalMilliseconds(0);
            // The process "dies" here: no close, so the recovery file stays for the next start.
        }
        Answers a;
        auto w = makeWindow(a);
        QTRY_COMPARE(a.recoveryOffered, 1);  // offered once the event loop runs
        QVERIFY(w->projectController()->waitForOpen());
        QCOMPARE(w->trainPage()->epochsBox()->value(), 33);
        QVERIFY(w->document()->hasData());
        QVERIFY(w->document()->isModified());  // recovered work is still unsaved
        QVERIFY(w->document()->filePath().isEmpty());
        a.unsaved = QMessageBox::Discard;
        QVERIFY(w->close());
        QVERIFY(!QFile::exists(recovery));  // discarded on purpose: nothing to recover any more
        QVERIFY(w->settings()->recoveryFile().isEmpty());
    }

    void unsavedChangesPromptOnClose() {
        Answers a;
        auto w = makeWindow(a);
        QAction* save = w->projectController()->saveAction();
        QVERIFY(!save->isEnabled());  // an untitled project with nothing in it
        loadCsv(w.get(), csv_);
        QVERIFY(save->isEnabled());
        // Data opened in an untitled project is unsaved work: the title's "*", and closing asks.
        QVERIFY(w->document()->isModified());
        QVERIFY(w->isWindowModified());
        a.unsaved = QMessageBox::Cancel;
        QVERIFY(!w->close());
        QCOMPARE(a.unsavedAsked, 1);
        QVERIFY(w->isVisible());
        w->trainPage()->batchBox()->setValue(64);
        QVERIFY(w->isWindowModified());
        QVERIFY(!w->close());
        QCOMPARE(a.unsavedAsked, 2);
        // New asks too; Save goes through Save As for an untitled project.
        a.unsaved = QMessageBox::Save;
        a.chooseFile = dir_.filePath(QStringLiteral("saved-on-new"));
        QVERIFY(w->projectController()->newProject());
        QCOMPARE(a.unsavedAsked, 3);
        QVERIFY(QFile::exists(dir_.filePath(QStringLiteral("saved-on-new.skynnet"))));
        QVERIFY(!w->document()->hasData());
        QVERIFY(!w->resultsPage()->hasResults());
        QVERIFY(w->document()->filePath().isEmpty());
        QVERIFY(!save->isEnabled());
        QVERIFY(!w->isWindowModified());
        QVERIFY(w->close());  // a new project, unmodified: no question
        QCOMPARE(a.unsavedAsked, 3);
    }

    // The training log is the project's: a reopened project shows its run's log at the newest
    // line, and New clears it.
    void logBelongsToItsProject() {
        Answers a;
        auto w = makeWindow(a);
        QVERIFY(openAndWait(w.get(), project_));
        QPlainTextEdit* log = w->trainPage()->logView();
        w->showPage(MainWindow::TrainPageIndex);
        log->resize(400, 60);  // a few lines: the log is longer than its view
        QTest::qWait(20);
        VERIFY_CONTAINS(log->toPlainText().toStdString(), "showing the run started");
        QVERIFY(log->verticalScrollBar()->maximum() > 0);
        QCOMPARE(log->verticalScrollBar()->value(), log->verticalScrollBar()->maximum());
        QVERIFY(w->projectController()->newProject());
        QCOMPARE(log->toPlainText(), QString());
        QVERIFY(openAndWait(w.get(), project_));
        VERIFY_CONTAINS(log->toPlainText().toStdString(), "showing the run started");
        QCOMPARE(log->toPlainText().count(QStringLiteral("showing the run started")), 1);  // not the last project's
    }

    // Closing (or New) while training asks one question: Cancel leaves the run running, Stop and
    // Save stops it and saves the project with the stopped run, Stop Without Saving stops it and
    // goes on without a second question.
    void closingWhileTrainingAsksOnce() {
        Answers a;
        auto w = makeWindow(a);
        loadCsv(w.get(), csv_);
        quickSettings(w->document());
        ProjectTraining t = w->document()->trainSettings();
        t.config.epochs = 100000;  // runs until stopped
        w->document()->setTrainSettings(t);
        TrainingSession* session = w->session();
        const auto startRun = [&] {
            QSignalSpy started(session, &TrainingSession::started);
            w->trainPage()->startTraining();
            QTRY_VERIFY_WITH_TIMEOUT(session->running() && !started.isEmpty(), hangGuardMs(30000));
        };
        startRun();
        a.stop = QMessageBox::Cancel;
        QVERIFY(!w->close());
        QCOMPARE(a.stopAsked, 1);
        QCOMPARE(a.stopAction, QStringLiteral("quit"));
        QCOMPARE(a.unsavedAsked, 0);  // one question, not two
        QVERIFY(w->isVisible());
        QVERIFY(session->running());  // Cancel left the run running

        // The question itself, as the app asks it (a window that keeps its own prompts): three
        // answers, Cancel the default; answered Cancel here too.
        MainWindow plain(std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("plain.ini"))));
        QStringList buttons;
        QTimer::singleShot(0, [&buttons] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) return;
            for (QAbstractButton* b : box->buttons()) buttons << b->text();
            shoot(box, QStringLiteral("close-while-training"));
            box->defaultButton()->click();
        });
        QCOMPARE(plain.projectController()->prompts().stopTraining(QStringLiteral("iris.skynnet"),
                                                                   QStringLiteral("quit")),
                 QMessageBox::Cancel);
        buttons.sort();
        QCOMPARE(buttons, (QStringList{QStringLiteral("Cancel"), QStringLiteral("Stop Without Saving"),
                                       QStringLiteral("Stop and Save")}));

        a.stop = QMessageBox::Save;
        a.chooseFile = dir_.filePath(QStringLiteral("stopped-on-new"));
        QVERIFY(w->projectController()->newProject());
        QCOMPARE(a.stopAsked, 2);
        QCOMPARE(a.stopAction, QStringLiteral("start a new project"));
        QCOMPARE(a.unsavedAsked, 0);
        QVERIFY(!session->running());
        const ProjectData saved = loadProject(dir_.filePath(QStringLiteral("stopped-on-new.skynnet")).toStdString());
        QCOMPARE(saved.runs.size(), std::size_t(1));
        QCOMPARE(saved.runs.back().status, TrainStatus::Cancelled);

        loadCsv(w.get(), csv_);
        quickSettings(w->document());
        w->document()->setTrainSettings(t);
        startRun();
        a.stop = QMessageBox::Discard;
        QVERIFY(w->close());
        QCOMPARE(a.stopAsked, 3);
        QCOMPARE(a.unsavedAsked, 0);
        QVERIFY(!session->running());
    }
};

QTEST_MAIN(TestProjectsUi)
#include "tst_projects_ui.moc"
