// Files and first start: the window title names the project, a project finds its data beside it
// by name and fingerprint, the Locate and Export file dialogs open where the last one was left,
// File > Open Model measures a .skym and saves its predictions as the command-line tool does, on a
// worker with progress and Cancel, a model opened as a project is offered as a model, the start
// page opens with nothing loaded, the sidebar marks only what exists, and the help: the manual,
// the shortcut list read from the real actions, and tooltips in plain language.
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <algorithm>
#include <cstring>
#include <functional>

#include "cli_support.h"
#include "data/data_source.h"
#include "project/project_file.h"
#include "spec/network_spec.h"
#include "split/combined_model_file.h"
#include "test_shots.h"
#include "test_support.h"
#include "train/metrics.h"
#include "ui/core/app_settings.h"
#include "ui/core/autosave.h"
#include "ui/core/model_job.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/file_chooser.h"
#include "ui/widgets/help_window.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/open_model_dialog.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/run_on_panel.h"
#include "ui/widgets/shortcut_list.h"
#include "ui/widgets/start_page.h"
#include "ui/widgets/train_page.h"
#include "window_open.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

struct Answers {
    QStringList locateProblems;
    QStringList errors;
    QStringList modelOffers;
    bool openAsModel = true;
};

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool copyFile(const QString& from, const QString& to) {
    QDir().mkpath(QFileInfo(to).absolutePath());
    QFile::remove(to);
    return QFile::copy(from, to);
}

const QString wineCsv = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/wine.csv");

bool sameBits(const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0;
}

// Answers the modal dialogs the code under test opens (a QMessageBox), one handler per dialog in
// the order they appear: each gets the dialog and closes it. Polls, because QMessageBox::exec
// runs its own event loop.
class ModalAnswers : public QObject {
public:
    using Handler = std::function<void(QWidget* dialog)>;
    explicit ModalAnswers(QList<Handler> handlers) : handlers_(std::move(handlers)) {
        connect(&timer_, &QTimer::timeout, this, [this] {
            QWidget* modal = QApplication::activeModalWidget();
            if (!modal || modal == answered_ || handlers_.isEmpty()) return;
            answered_ = modal;
            handlers_.takeFirst()(modal);
        });
        timer_.start(20);
    }
    bool allAnswered() const { return handlers_.isEmpty(); }

private:
    QList<Handler> handlers_;
    QPointer<QWidget> answered_;
    QTimer timer_;
};

// The Locate prompt's box: press its "Locate…" button.
void pressLocate(QWidget* dialog) {
    auto* box = qobject_cast<QMessageBox*>(dialog);
    QVERIFY(box);
    for (QAbstractButton* b : box->buttons())
        if (b->text() == QStringLiteral("Locate…")) return b->click();
    QFAIL("no Locate… button");
}

// Answers the app's file dialogs (askForFile) while it lives, in the order they are asked: notes
// each request (where the dialog would have started) and gives the next answer, empty: cancelled.
class FileAnswers {
public:
    explicit FileAnswers(QStringList answers) : answers_(std::move(answers)) {}
    QList<FileRequest> asked;

private:
    QStringList answers_;
    ScopedFileChooser chooser_{[this](QWidget*, const FileRequest& r) {
        asked << r;
        return answers_.isEmpty() ? QString() : answers_.takeFirst();
    }};
};

// Wine's rows `times` over as one CSV: enough rows for several slices of a model's prediction.
QString repeatedWine(const QString& path, int times) {
    QFile in(wineCsv);
    if (!in.open(QIODevice::ReadOnly)) return {};
    const QByteArray all = in.readAll();
    const qsizetype headerEnd = all.indexOf('\n') + 1;
    QByteArray body = all.mid(headerEnd);
    if (!body.endsWith('\n')) body += '\n';
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    out.write(all.left(headerEnd));
    for (int i = 0; i < times; ++i) out.write(body);
    return path;
}
const QString exampleProject = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/projects/wine-class-groups.skynnet");

}  // namespace

class TestFiles : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString model_;  // the example project's trained model, exported as a .skym

    std::unique_ptr<MainWindow> makeWindow(Answers& a, const QString& settingsFile = {}) {
        const QString ini = settingsFile.isEmpty() ? dir_.filePath(QStringLiteral("settings.ini")) : settingsFile;
        auto w = std::make_unique<MainWindow>(std::make_unique<AppSettings>(ini));
        ProjectController::Prompts& p = w->projectController()->prompts();
        p.unsavedChanges = [](const QString&) { return QMessageBox::Discard; };
        p.locateData = [&a](const QString& problem, const QString&) {
            a.locateProblems << problem;
            return QString();
        };
        p.chooseProjectFile = [](bool, const QString&) { return QString(); };
        p.restoreRecovery = [](const QString&, const QString&) { return false; };
        p.showError = [&a](const QString&, const QString& message) { a.errors << message; };
        p.openAsModel = [&a](const QString& path) {
            a.modelOffers << path;
            return a.openAsModel;
        };
        w->projectController()->autosave()->setDirectory(dir_.filePath(QStringLiteral("recovery")));
        w->resize(1280, 860);
        w->show();
        return w;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);  // Qt's own dialogs, which a test can answer
        QVERIFY(dir_.isValid());
        // The example project's trained combined model, as File > Export writes it.
        const ProjectData example = loadProject(exampleProject.toStdString());
        QVERIFY(!example.runs.empty() && example.runs.back().results && example.runs.back().results->model);
        model_ = dir_.filePath(QStringLiteral("models/wine.skym"));
        QVERIFY(QDir().mkpath(dir_.filePath(QStringLiteral("models"))));
        saveCombinedModel(model_.toStdString(), *example.runs.back().results->model);
    }

    // Nothing is loaded behind the user's back: the start page, no data, no ticks; opening data
    // shows the pages, and the sidebar marks the data but not results that do not exist.
    void firstStartShowsTheStartPageWithNothingLoaded() {
        Answers a;
        auto w = makeWindow(a);
        QTest::qWait(50);
        QVERIFY(w->startPageShown());
        QVERIFY(w->startPage()->isVisible());
        QVERIFY(!w->document()->hasData());
        QVERIFY(!w->dataPage()->isLoading());
        QVERIFY(!w->projectController()->isOpening());
        for (int page = 0; page < MainWindow::PageCount; ++page)
            QVERIFY2(!w->sidebarMarked(page), qPrintable(QString::number(page)));
        QCOMPARE(w->sidebarToolTip(MainWindow::ResultsPageIndex), QStringLiteral("No results yet: train first"));
        QVERIFY(w->windowTitle().startsWith(QStringLiteral("Untitled[*]")));
        QVERIFY(!w->startPage()->exampleButtons().isEmpty());

        // An example from the start page: the pages show, the data is marked, results are not.
        QAbstractButton* iris = nullptr;
        for (QAbstractButton* b : w->startPage()->exampleButtons())
            if (b->text().startsWith(QStringLiteral("Iris"))) iris = b;
        QVERIFY(iris);
        iris->click();
        QVERIFY(!w->startPageShown());
        QVERIFY(w->dataPage()->waitForLoad(hangGuardMs(30000)));
        QVERIFY(w->document()->hasData());
        QCOMPARE(w->currentPage(), int(MainWindow::DataPageIndex));
        QVERIFY(w->sidebarMarked(MainWindow::DataPageIndex));
        QVERIFY(!w->sidebarMarked(MainWindow::ResultsPageIndex));
        QVERIFY(!w->session()->results());
        w->showStartPage();  // File > Start Page
        QVERIFY(w->startPageShown());
        w->close();
    }

    // A file named .skynnet that is no project, opened from the start page, says so and leaves the
    // window on the start page (it showed an empty Data page); opened from the pages, on the page
    // the user was on.
    void aFileThatIsNoProjectLeavesTheWindowWhereItWas() {
        const QString bogus = dir_.filePath(QStringLiteral("bogus.skynnet"));
        writeFileAtomicallyForTest(bogus, "this is not a project\n");
        Answers a;
        auto w = makeWindow(a);
        QVERIFY(w->startPageShown());
        QSignalSpy finished(w->projectController(), &ProjectController::openFinished);
        w->openPath(bogus);  // as a drop, or the command line's FILE
        QVERIFY(finished.wait(hangGuardMs(30000)));
        QVERIFY(!finished.at(0).at(0).toBool());
        QCOMPARE(a.errors.size(), 1);
        QVERIFY2(a.errors[0].contains(QStringLiteral("not a Skynnet project")), qPrintable(a.errors[0]));
        QVERIFY(w->startPageShown());
        QVERIFY(!w->document()->hasData());

        w->dataPage()->loadFile(wineCsv);
        QVERIFY(w->dataPage()->waitForLoad(hangGuardMs(30000)));
        w->showPage(MainWindow::NetworkPageIndex);
        QVERIFY(!openAndWait(w.get(), bogus));
        QCOMPARE(a.errors.size(), 2);
        QVERIFY(!w->startPageShown());
        QCOMPARE(w->currentPage(), int(MainWindow::NetworkPageIndex));
        QVERIFY(w->document()->hasData());
        w->close();
    }

    // The title names the project's file and carries the modified mark; the data of a project
    // sent on its own is found beside it by name, but only with the saved fingerprint.
    void projectFindsItsDataBesideItByFingerprint() {
        const QString original = dir_.filePath(QStringLiteral("origin/data/wine.csv"));
        QVERIFY(copyFile(wineCsv, original));
        const QString saved = dir_.filePath(QStringLiteral("origin/projects/wine.skynnet"));
        QVERIFY(QDir().mkpath(QFileInfo(saved).absolutePath()));
        {
            Answers a;
            auto w = makeWindow(a);
            w->dataPage()->loadFile(original);
            QVERIFY(w->dataPage()->waitForLoad(hangGuardMs(30000)));
            QVERIFY(w->projectController()->saveTo(saved));
            QCOMPARE(w->windowTitle(), QStringLiteral("wine.skynnet[*] — Skynnet"));
            QVERIFY(!w->isWindowModified());
            NetworkSpec net = w->document()->network();
            net.layers = parseLayers("dense:9:relu");
            w->document()->editNetwork(net);
            QVERIFY(w->isWindowModified());
            w->close();
        }
        // The next start lists it first among the recent projects, and a click opens it.
        {
            Answers a;
            auto w = makeWindow(a);
            QVERIFY(w->startPageShown());
            const QList<QAbstractButton*> recent = w->startPage()->recentProjectButtons();
            QVERIFY(!recent.isEmpty());
            QCOMPARE(recent.front()->toolTip(), saved);
            QSignalSpy finished(w->projectController(), &ProjectController::openFinished);
            recent.front()->click();
            QVERIFY(!w->startPageShown());
            QVERIFY(finished.wait(hangGuardMs(60000)));
            QVERIFY(finished.at(0).at(0).toBool());
            QCOMPARE(w->document()->filePath(), saved);
            QVERIFY(w->document()->hasData());
            w->close();
        }

        // The project alone goes to another folder with a copy of its data beside it; the data's
        // recorded places are both gone.
        const QString moved = dir_.filePath(QStringLiteral("received/wine.skynnet"));
        QVERIFY(copyFile(saved, moved));
        const QString beside = dir_.filePath(QStringLiteral("received/wine.csv"));
        QVERIFY(copyFile(original, beside));
        QVERIFY(QDir(dir_.filePath(QStringLiteral("origin"))).removeRecursively());
        ProjectData p = loadProject(moved.toStdString());
        QCOMPARE(p.data.train.status, DataFileStatus::Found);
        QCOMPARE(QString::fromStdString(p.data.train.path), beside);

        // Through the window: opened without a question, with its data, the title naming it.
        {
            Answers a;
            auto w = makeWindow(a);
            QVERIFY(openAndWait(w.get(), moved));
            QVERIFY2(a.locateProblems.isEmpty(), qPrintable(a.locateProblems.join('\n')));
            QVERIFY(a.errors.isEmpty());
            QVERIFY(w->document()->hasData());
            QCOMPARE(QString::fromStdString(w->document()->dataSettings().train.path), beside);
            QCOMPARE(w->windowTitle(), QStringLiteral("wine.skynnet[*] — Skynnet"));
            QVERIFY(!w->startPageShown());
            w->close();
        }

        // A namesake with other content is not the project's data: reported missing where it was
        // saved, never "changed", and the user is asked.
        writeFileAtomicallyForTest(beside, "a,b,class\n1,2,x\n3,4,y\n");
        p = loadProject(moved.toStdString());
        QCOMPARE(p.data.train.status, DataFileStatus::Missing);
        QCOMPARE(QString::fromStdString(p.data.train.path), original);
        {
            Answers a;
            auto w = makeWindow(a);
            QVERIFY(openAndWait(w.get(), moved));
            QCOMPARE(a.locateProblems.size(), 1);
            QVERIFY2(a.locateProblems[0].contains(original + QStringLiteral(" was not found")),
                     qPrintable(a.locateProblems[0]));
            QVERIFY(!w->document()->hasData());
            w->close();
        }
    }

    // File > Open Model: the model's description, its accuracy on a labelled file, and its
    // predictions written as the same CSV `skynnet-cli predict` writes, byte for byte.
    void openModelMeasuresAndSavesPredictions() {
        OpenModelDialog dialog(nullptr);
        QVERIFY2(dialog.loadModel(model_), qPrintable(dialog.statusText()));
        QVERIFY(dialog.hasModel());
        const QString summary = dialog.modelSummary();
        QVERIFY2(summary.contains(QStringLiteral("3 submodel(s) combined by class-groups")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("13 input columns")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("3 classes")), qPrintable(summary));

        const QString csv = dir_.filePath(QStringLiteral("models/wine.csv"));
        QVERIFY(copyFile(wineCsv, csv));
        dialog.setDataPath(csv);
        QVERIFY2(dialog.evaluate(), qPrintable(dialog.statusText()));
        // The figure the engine gives for the same model and rows.
        const SavedCombinedModel saved = loadAnyModel(model_.toStdString());
        CombinedModel built = buildCombinedModel(saved);
        DataRequest request;
        request.path = csv.toStdString();
        const Dataset data = loadLike(request, saved.schema, true);
        const double accuracy = headlineMetric(saved.task(), predictRaw(built, saved, data.features),
                                               data.targetMatrix());
        QVERIFY(accuracy > 0.8);  // a trained model, not chance (1/3)
        QCOMPARE(dialog.metricText(), QStringLiteral("accuracy %1 on 178 samples").arg(accuracy, 0, 'f', 4));

        const QString out = dir_.filePath(QStringLiteral("models/predictions.csv"));
        QVERIFY2(dialog.savePredictions(out), qPrintable(dialog.statusText()));
        QCOMPARE(dialog.statusText(), QString(QStringLiteral("Wrote 178 predictions to ") + out));
        const QByteArray written = readAll(out);
        QCOMPARE(written.count('\n'), 179);
        QVERIFY(written.startsWith("predicted,probability_"));
        const QString fromCli = dir_.filePath(QStringLiteral("models/cli-predictions.csv"));
        const CliRun cli = runCli({"predict", "--model", model_, "--data", csv, "--output", fromCli});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QCOMPARE(written, readAll(fromCli));

        // Errors stay in the dialog, naming what failed; the model stays open.
        dialog.setDataPath(dir_.filePath(QStringLiteral("models/none.csv")));
        QVERIFY(!dialog.evaluate());
        QVERIFY2(dialog.statusText().startsWith(QStringLiteral("Cannot measure the model: ")),
                 qPrintable(dialog.statusText()));
        QVERIFY2(dialog.statusText().contains(QStringLiteral("none.csv")), qPrintable(dialog.statusText()));
        QVERIFY(dialog.metricText().isEmpty());
        QVERIFY(!dialog.savePredictions(dir_.filePath(QStringLiteral("models/no/such/folder/p.csv"))));
        QVERIFY2(dialog.statusText().startsWith(QStringLiteral("Cannot save the predictions: ")),
                 qPrintable(dialog.statusText()));
        QVERIFY(!dialog.loadModel(exampleProject));  // a project is not a model
        QVERIFY2(dialog.statusText().startsWith(QStringLiteral("Cannot open the model: ")),
                 qPrintable(dialog.statusText()));
        QVERIFY(dialog.hasModel());
        QCOMPARE(dialog.modelPath(), model_);
    }

    // A model file opened as a project is offered as a model, and opens as one when accepted.
    void modelOpenedAsProjectIsOfferedAsAModel() {
        Answers a;
        auto w = makeWindow(a);
        QSignalSpy finished(w->projectController(), &ProjectController::openFinished);
        QVERIFY(w->projectController()->openFile(model_));
        QVERIFY(finished.wait(hangGuardMs(30000)));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(a.modelOffers, QStringList{model_});
        QVERIFY(a.errors.isEmpty());  // the offer replaces the error
        const QList<OpenModelDialog*> dialogs = w->findChildren<OpenModelDialog*>();
        QCOMPARE(dialogs.size(), 1);
        QVERIFY(dialogs[0]->hasModel());
        QCOMPARE(dialogs[0]->modelPath(), model_);
        QVERIFY(dialogs[0]->isVisible());
        dialogs[0]->close();

        // Declined: nothing opens and no error either.
        a.openAsModel = false;
        finished.clear();
        QVERIFY(w->projectController()->openFile(model_));
        QVERIFY(finished.wait(hangGuardMs(30000)));
        QCOMPARE(a.modelOffers.size(), 2);
        QTest::qWait(20);  // the first dialog's deferred delete
        QVERIFY(w->findChildren<OpenModelDialog*>().isEmpty());
        QVERIFY(a.errors.isEmpty());

        // A project that is neither is still an error.
        const QString junk = dir_.filePath(QStringLiteral("junk.skynnet"));
        writeFileAtomicallyForTest(junk, "not a project");
        finished.clear();
        QVERIFY(w->projectController()->openFile(junk));
        QVERIFY(finished.wait(hangGuardMs(30000)));
        QCOMPARE(a.modelOffers.size(), 2);
        QCOMPARE(a.errors.size(), 1);
        QVERIFY2(a.errors[0].contains(junk + QStringLiteral(" is not a Skynnet project file")),
                 qPrintable(a.errors[0]));
        w->close();
    }

    // Measuring and predicting run on a worker: the dialog answers while the job holds (paused at
    // its first chunk of rows), shows what it does, and Cancel ends it with nothing written; then
    // the same jobs run to the end and give the engine's numbers and the command-line tool's CSV.
    void openModelWorksOffTheGuiThreadWithCancel() {
        const QString big = repeatedWine(dir_.filePath(QStringLiteral("models/wine-x60.csv")), 60);
        QVERIFY(!big.isEmpty());
        OpenModelDialog dialog(nullptr);
        dialog.show();
        QVERIFY2(dialog.loadModel(model_), qPrintable(dialog.statusText()));
        dialog.setDataPath(big);
        QSignalSpy finished(&dialog, &OpenModelDialog::jobFinished);

        dialog.job()->pause();
        QVERIFY(dialog.startEvaluate());
        QVERIFY(dialog.busy());
        QVERIFY(!dialog.evaluateButton()->isEnabled());
        QVERIFY(!dialog.predictButton()->isEnabled());
        QVERIFY(dialog.cancelButton()->isVisible());
        QVERIFY(dialog.cancelButton()->isEnabled());
        QVERIFY(dialog.progressBar()->isVisible());
        // The event loop runs while the worker reads the data and then holds at its first chunk.
        QTRY_COMPARE_WITH_TIMEOUT(dialog.job()->stage(), ModelJob::Predicting, hangGuardMs(30000));
        QTRY_COMPARE(dialog.findChild<QLabel*>(QStringLiteral("openModelStage"))->text(),
                     QStringLiteral("Predicting…"));
        QVERIFY(dialog.busy());
        QVERIFY(!dialog.startEvaluate());  // one job at a time
        shoot(&dialog, QStringLiteral("open-model-measuring"));
        dialog.cancelButton()->click();
        QVERIFY(finished.wait(hangGuardMs(30000)));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
        QCOMPARE(dialog.statusText(), QStringLiteral("Cancelled: the model was not measured."));
        QVERIFY(dialog.metricText().isEmpty());
        QVERIFY(!dialog.busy());
        QVERIFY(!dialog.progressBar()->isVisible());
        QVERIFY(dialog.evaluateButton()->isEnabled());
        shoot(&dialog, QStringLiteral("open-model-cancelled"));

        // A cancelled save leaves no file.
        const QString out = dir_.filePath(QStringLiteral("models/big-predictions.csv"));
        QVERIFY(dialog.startPredictions(out));
        QTRY_COMPARE_WITH_TIMEOUT(dialog.job()->stage(), ModelJob::Predicting, hangGuardMs(30000));
        dialog.cancelJob();
        QVERIFY(finished.wait(hangGuardMs(30000)));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
        QCOMPARE(dialog.statusText(), QStringLiteral("Cancelled: no predictions were written."));
        QVERIFY(!QFileInfo::exists(out));

        // Resumed, the same jobs end: the engine's metric over all rows, the tool's CSV byte for byte.
        dialog.job()->resume();
        QVERIFY2(dialog.evaluate(), qPrintable(dialog.statusText()));
        const SavedCombinedModel saved = loadAnyModel(model_.toStdString());
        CombinedModel built = buildCombinedModel(saved);
        DataRequest request;
        request.path = big.toStdString();
        const Dataset data = loadLike(request, saved.schema, true);
        QCOMPARE(data.size(), 178 * 60);
        const Matrix whole = predictRaw(built, saved, data.features);
        const double accuracy = headlineMetric(saved.task(), whole, data.targetMatrix());
        QCOMPARE(dialog.metricText(), QStringLiteral("accuracy %1 on 10680 samples").arg(accuracy, 0, 'f', 4));
        QVERIFY2(dialog.savePredictions(out), qPrintable(dialog.statusText()));
        QCOMPARE(dialog.statusText(), QString(QStringLiteral("Wrote 10680 predictions to ") + out));
        shoot(&dialog, QStringLiteral("open-model-done"));
        const QString fromCli = dir_.filePath(QStringLiteral("models/big-cli-predictions.csv"));
        const CliRun cli = runCli({"predict", "--model", model_, "--data", big, "--output", fromCli});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QCOMPARE(readAll(out), readAll(fromCli));

        // The sliced prediction the job runs is predictRaw's, bit for bit, and says how far it got.
        std::vector<double> fractions;
        const Matrix sliced = predictRaw(built, saved, data.features, nullptr,
                                         [&](double f) { fractions.push_back(f); });
        QVERIFY(sameBits(sliced, whole));
        QCOMPARE(fractions.size(),
                 std::size_t(1 + 2 * 3));  // the start, then two slices of 8192 rows for each of 3 submodels
        QCOMPARE(fractions.front(), 0.0);
        QCOMPARE(fractions.back(), 1.0);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        CancelToken stop;
        stop.cancel();
        QCOMPARE(predictRaw(built, saved, data.features, &stop, {}).size(), Index(0));
    }

    // The Locate dialog opens where the user last found moved data, the Export dialog's Browse…
    // where the last export went; before either, beside the old file or the suggestion.
    void locateAndExportDialogsRememberTheirFolder() {
        const QString data = dir_.filePath(QStringLiteral("locate/data/wine.csv"));
        QVERIFY(copyFile(wineCsv, data));
        const QString project = dir_.filePath(QStringLiteral("locate/project/wine.skynnet"));
        QVERIFY(QDir().mkpath(QFileInfo(project).absolutePath()));
        const QString settingsFile = dir_.filePath(QStringLiteral("locate-settings.ini"));
        const auto window = [&] {
            auto w = std::make_unique<MainWindow>(std::make_unique<AppSettings>(settingsFile));
            ProjectController::Prompts& p = w->projectController()->prompts();  // locateData stays the real one
            p.unsavedChanges = [](const QString&) { return QMessageBox::Discard; };
            p.showError = [](const QString& title, const QString& message) {
                QFAIL(qPrintable(title + ": " + message));
            };
            w->projectController()->autosave()->setDirectory(dir_.filePath(QStringLiteral("recovery")));
            w->show();
            return w;
        };
        {
            auto w = window();
            w->dataPage()->loadFile(data);
            QVERIFY(w->dataPage()->waitForLoad(hangGuardMs(30000)));
            QVERIFY(w->projectController()->saveTo(project));
            w->close();
        }
        // The data moves to another folder under another name.
        const QString moved = dir_.filePath(QStringLiteral("locate/elsewhere/wine-copy.csv"));
        QVERIFY(copyFile(data, moved));
        QVERIFY(QFile::remove(data));
        {
            auto w = window();
            ModalAnswers answers({pressLocate});
            FileAnswers files({moved});
            QVERIFY(openAndWait(w.get(), project));
            QVERIFY(answers.allAnswered());
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].kind, FileRequest::OpenFile);
            QCOMPARE(files.asked[0].caption, QStringLiteral("Locate wine.csv"));
            QCOMPARE(files.asked[0].start, QFileInfo(data).absolutePath());  // nothing remembered yet: where it was
            QCOMPARE(QString::fromStdString(w->document()->dataSettings().train.path), moved);
            QCOMPARE(w->settings()->lastLocateFolder(), QFileInfo(moved).absolutePath());
            w->close();
        }
        {
            // The project still names the old place: asked again, the dialog opens where the user
            // found it last time, in a later session too.
            auto w = window();
            ModalAnswers answers({pressLocate});
            FileAnswers files({QString()});
            QVERIFY(openAndWait(w.get(), project));
            QVERIFY(answers.allAnswered());
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].start, QFileInfo(moved).absolutePath());
            QVERIFY(!w->document()->hasData());  // cancelled: opened without its data
            QCOMPARE(w->settings()->lastLocateFolder(), QFileInfo(moved).absolutePath());
            w->close();
        }

        // Export: Browse… opens at the suggestion first, then where the chosen file went.
        AppSettings settings(settingsFile);
        const SavedCombinedModel m = loadAnyModel(model_.toStdString());
        const QString chosen = dir_.filePath(QStringLiteral("exports/picked/wine-model.skym"));
        QVERIFY(QDir().mkpath(QFileInfo(chosen).absolutePath()));
        {
            ExportDialog dialog(m, dir_.filePath(QStringLiteral("out/wine-model")), &settings);
            QCOMPARE(dialog.browseStart(), dir_.filePath(QStringLiteral("out/wine-model.skym")));
            QVERIFY(QDir().mkpath(dir_.filePath(QStringLiteral("out"))));
            FileAnswers files({chosen});
            dialog.browseButton()->click();
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].kind, FileRequest::SaveFile);
            QCOMPARE(files.asked[0].start, dir_.filePath(QStringLiteral("out/wine-model.skym")));
            QCOMPARE(dialog.path(), chosen);
            QCOMPARE(settings.lastExportFolder(), QFileInfo(chosen).absolutePath());
        }
        {
            ExportDialog dialog(m, dir_.filePath(QStringLiteral("out/other")), &settings);
            QCOMPARE(dialog.path(), dir_.filePath(QStringLiteral("out/other.skym")));  // the suggestion stays
            QCOMPARE(dialog.browseStart(), QFileInfo(chosen).absolutePath() + QStringLiteral("/other.skym"));
            FileAnswers files({QString()});
            dialog.browseButton()->click();
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].start, QFileInfo(chosen).absolutePath() + QStringLiteral("/other.skym"));
            QCOMPARE(dialog.path(), dir_.filePath(QStringLiteral("out/other.skym")));  // cancelled: unchanged
            // An export typed by hand is remembered as well; a failed one is not.
            const QString typed = dir_.filePath(QStringLiteral("exports/typed/other.skym"));
            QVERIFY(QDir().mkpath(QFileInfo(typed).absolutePath()));
            dialog.setPath(dir_.filePath(QStringLiteral("exports/no/such/folder/other.skym")));
            QVERIFY(!dialog.exportNow());
            QCOMPARE(settings.lastExportFolder(), QFileInfo(chosen).absolutePath());
            dialog.setPath(typed);
            QVERIFY2(dialog.exportNow(), qPrintable(dialog.statusText()));
            QCOMPARE(settings.lastExportFolder(), QFileInfo(typed).absolutePath());
        }
    }

    // File > Open Data: the dialog starts in the home folder, then where data was last opened from
    // (in a later session too); the chosen file is loaded, and a cancel changes nothing.
    void openDataDialogRemembersItsFolder() {
        const QString settingsFile = dir_.filePath(QStringLiteral("open-data-settings.ini"));
        const QString chosen = dir_.filePath(QStringLiteral("open-data/picked/wine.csv"));
        QVERIFY(copyFile(wineCsv, chosen));
        const auto openData = [](MainWindow* w) {
            for (QAction* a : w->menuBar()->actions().first()->menu()->actions())
                if (a->text() == QStringLiteral("Open &Data…")) return a->trigger();
            QFAIL("no File > Open Data…");
        };
        {
            Answers a;
            auto w = makeWindow(a, settingsFile);
            FileAnswers files({chosen});
            openData(w.get());
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].kind, FileRequest::OpenFile);
            QCOMPARE(files.asked[0].caption, QStringLiteral("Open data"));
            QCOMPARE(files.asked[0].start, QDir::homePath());  // nothing remembered yet
            QVERIFY(w->dataPage()->waitForLoad(hangGuardMs(30000)));
            QVERIFY(w->document()->hasData());
            QCOMPARE(QString::fromStdString(w->document()->dataSettings().train.path), chosen);
            QCOMPARE(w->document()->dataset()->size(), Index(178));
            QCOMPARE(w->settings()->lastDataFolder(), QFileInfo(chosen).absolutePath());
            w->close();
        }
        {
            Answers a;
            auto w = makeWindow(a, settingsFile);
            FileAnswers files({QString()});
            openData(w.get());
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].start, QFileInfo(chosen).absolutePath());
            QVERIFY(!w->dataPage()->isLoading());
            QVERIFY(!w->document()->hasData());  // cancelled: nothing loaded
            w->close();
        }
    }

    // File > Open Model starts where the last project or model was opened and opens the chosen
    // model; in its dialog, the data's Browse… starts where data was last opened and remembers the
    // new folder, and Predict and Save CSV… suggests a file beside the data and writes it there.
    void openModelDialogsUseTheChosenFiles() {
        const QString settingsFile = dir_.filePath(QStringLiteral("open-model-settings.ini"));
        const QString dataFolder = dir_.filePath(QStringLiteral("open-model/data"));
        const QString csv = dataFolder + QStringLiteral("/wine.csv");
        QVERIFY(copyFile(wineCsv, csv));
        Answers a;
        auto w = makeWindow(a, settingsFile);
        OpenModelDialog* dialog = nullptr;
        {
            FileAnswers files({model_});
            dialog = w->openModel();
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].kind, FileRequest::OpenFile);
            QCOMPARE(files.asked[0].caption, QStringLiteral("Open Model"));
            QCOMPARE(files.asked[0].start, QDir::homePath());
        }
        QVERIFY(dialog);
        QVERIFY2(dialog->hasModel(), qPrintable(dialog->statusText()));
        QCOMPARE(dialog->modelPath(), model_);
        QCOMPARE(w->settings()->lastProjectFolder(), QFileInfo(model_).absolutePath());
        {
            FileAnswers files({csv});
            dialog->browseButton()->click();
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].kind, FileRequest::OpenFile);
            QCOMPARE(files.asked[0].start, QDir::homePath());  // no data opened yet
            QCOMPARE(dialog->dataPath(), csv);
            QCOMPARE(w->settings()->lastDataFolder(), dataFolder);
        }
        const QString out = dataFolder + QStringLiteral("/chosen-predictions.csv");
        {
            FileAnswers files({out});
            QSignalSpy finished(dialog, &OpenModelDialog::jobFinished);
            dialog->predictButton()->click();
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].kind, FileRequest::SaveFile);
            QCOMPARE(files.asked[0].start, dataFolder + QStringLiteral("/wine-predictions.csv"));
            QVERIFY(finished.count() == 1 || finished.wait(hangGuardMs(30000)));
            QCOMPARE(finished.at(0).at(0).toBool(), true);
        }
        QCOMPARE(readAll(out).count('\n'), 179);  // the header and one line per row
        dialog->close();
        {
            // The next Open Model starts in the model's folder; cancelled, nothing opens.
            FileAnswers files({QString()});
            QVERIFY(!w->openModel());
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].start, QFileInfo(model_).absolutePath());
        }
        w->close();
    }

    // Save Log… suggests <project>-log.txt beside the saved project (training-log.txt in the last
    // project folder before it is saved) and writes the log to the file chosen.
    void saveLogWritesTheChosenFile() {
        const QString settingsFile = dir_.filePath(QStringLiteral("save-log-settings.ini"));
        const QString lastFolder = dir_.filePath(QStringLiteral("save-log/last"));
        QVERIFY(QDir().mkpath(lastFolder));
        AppSettings(settingsFile).setLastProjectFolder(lastFolder);
        Answers a;
        auto w = makeWindow(a, settingsFile);
        TrainPage* train = w->trainPage();
        train->logView()->setPlainText(QStringLiteral("first line\nsecond line"));
        {
            FileAnswers files({QString()});
            train->saveLogButton()->click();
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].kind, FileRequest::SaveFile);
            QCOMPARE(files.asked[0].caption, QStringLiteral("Save Log"));
            QCOMPARE(files.asked[0].start, lastFolder + QStringLiteral("/training-log.txt"));
        }
        w->dataPage()->loadFile(wineCsv);
        QVERIFY(w->dataPage()->waitForLoad(hangGuardMs(30000)));
        const QString project = dir_.filePath(QStringLiteral("save-log/project/wine.skynnet"));
        QVERIFY(QDir().mkpath(QFileInfo(project).absolutePath()));
        QVERIFY(w->projectController()->saveTo(project));
        train->logView()->setPlainText(QStringLiteral("first line\nsecond line"));
        const QString chosen = dir_.filePath(QStringLiteral("save-log/elsewhere/run.txt"));
        QVERIFY(QDir().mkpath(QFileInfo(chosen).absolutePath()));
        {
            FileAnswers files({chosen});
            train->saveLogButton()->click();
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].start, QFileInfo(project).absolutePath() + QStringLiteral("/wine-log.txt"));
        }
        QCOMPARE(readAll(chosen), QByteArray("first line\nsecond line\n"));
        QVERIFY(train->errorText().isEmpty());
        w->close();
    }

    // The hostfile's Browse… starts in the project's folder while none is chosen, then at the
    // chosen one; the file chosen becomes the project's hostfile, and a cancel keeps it.
    void hostfilePickerUsesTheChosenFile() {
        Answers a;
        auto w = makeWindow(a, dir_.filePath(QStringLiteral("hostfile-settings.ini")));
        w->dataPage()->loadFile(wineCsv);
        QVERIFY(w->dataPage()->waitForLoad(hangGuardMs(30000)));
        const QString project = dir_.filePath(QStringLiteral("hosts/project/wine.skynnet"));
        QVERIFY(QDir().mkpath(QFileInfo(project).absolutePath()));
        QVERIFY(w->projectController()->saveTo(project));
        const QString hostfile = dir_.filePath(QStringLiteral("hosts/cluster/hostfile"));
        QVERIFY(QDir().mkpath(QFileInfo(hostfile).absolutePath()));
        writeFileAtomicallyForTest(hostfile, "localhost slots=2\n");
        RunOnPanel* panel = w->trainPage()->runOnPanel();
        panel->targetBox()->setCurrentIndex(1);  // the machines in a hostfile
        QVERIFY(panel->browseButton()->isEnabled());
        {
            FileAnswers files({hostfile});
            panel->browseButton()->click();
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].kind, FileRequest::OpenFile);
            QCOMPARE(files.asked[0].caption, QStringLiteral("Open MPI hostfile"));
            QCOMPARE(files.asked[0].start, QFileInfo(project).absolutePath());
        }
        QCOMPARE(panel->hostfileEdit()->text(), hostfile);
        QCOMPARE(QString::fromStdString(w->document()->trainSettings().runOn.hostfile), hostfile);
        {
            FileAnswers files({QString()});
            panel->browseButton()->click();
            QCOMPARE(files.asked.size(), 1);
            QCOMPARE(files.asked[0].start, hostfile);
        }
        QCOMPARE(QString::fromStdString(w->document()->trainSettings().runOn.hostfile), hostfile);
        w->close();
    }

    // The native export is a .skym, whatever suffix the suggestion had.
    void nativeExportIsSkym() {
        const SavedCombinedModel m = loadAnyModel(model_.toStdString());
        ExportDialog fromProjectName(m, dir_.filePath(QStringLiteral("out/wine-model")));
        QCOMPARE(fromProjectName.path(), dir_.filePath(QStringLiteral("out/wine-model.skym")));
        ExportDialog fromOldName(m, dir_.filePath(QStringLiteral("out/old.skynnet")));
        QCOMPARE(fromOldName.path(), dir_.filePath(QStringLiteral("out/old.skym")));
        fromOldName.setFormat(ExportDialog::Onnx);
        QCOMPARE(fromOldName.path(), dir_.filePath(QStringLiteral("out/old.onnx")));
        fromOldName.setFormat(ExportDialog::NativeModel);
        QCOMPARE(fromOldName.path(), dir_.filePath(QStringLiteral("out/old.skym")));
    }

    // Help > Manual shows the manual from the resources; Help > Keyboard Shortcuts lists the
    // actions' real shortcuts, so a shortcut changed in code changes the list.
    void manualAndShortcutList() {
        const QString html = HelpWindow::manualHtml();
        for (const char* part :
             {"The workflow", "1. Data", "2. Network", "3. Split", "4. Train", "5. Results", "Split strategies",
              "Class groups", "Binary shards", "Output split", "Data shards", "skynnet-cli predict", ".skym"})
            QVERIFY2(html.contains(QLatin1String(part)), part);

        Answers a;
        auto w = makeWindow(a);
        HelpWindow* help = w->showManual();
        QVERIFY(help->isVisible());
        QVERIFY(help->browser()->toPlainText().contains(QStringLiteral("Split strategies")));
        QCOMPARE(w->showManual(), help);  // one help window, raised again
        // No taller than the screen (this one's offscreen screen is shorter than its 820 pixels).
        const QRect room = help->screen()->availableGeometry();
        QVERIFY2(help->height() <= room.height() - 40 && help->width() <= room.width(),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                .arg(help->width())
                                .arg(help->height())
                                .arg(room.width())
                                .arg(room.height())));

        const QList<ShortcutEntry> entries = shortcutEntries(w->menuBar());
        const auto keysOf = [&entries](const QString& menu, const QString& command) {
            for (const ShortcutEntry& e : entries)
                if (e.menu == menu && e.command == command) return e.keys;
            return QStringLiteral("(not listed)");
        };
        QCOMPARE(keysOf("File", "Save Project"), QKeySequence(QKeySequence::Save).toString(QKeySequence::NativeText));
        QCOMPARE(keysOf("File", "Open Data…"),
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O).toString(QKeySequence::NativeText));
        QCOMPARE(keysOf("Help", "Manual"), QKeySequence(QKeySequence::HelpContents).toString(QKeySequence::NativeText));
        QCOMPARE(keysOf("Train", "Start"),
                 QString(QStringLiteral("F5, ") +
                         QKeySequence(Qt::CTRL | Qt::Key_R).toString(QKeySequence::NativeText)));
        QCOMPARE(keysOf("File", "Open Model…"), QStringLiteral("(not listed)"));  // no shortcut: not listed
        QCOMPARE(keysOf("File", "Start Page"), QStringLiteral("(not listed)"));

        // A shortcut set in code shows in the list.
        for (QAction* action : w->findChildren<QAction*>())
            if (action->text() == QStringLiteral("Start &Page"))
                action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Home));
        const QList<ShortcutEntry> again = shortcutEntries(w->menuBar());
        bool found = false;
        for (const ShortcutEntry& e : again)
            found |= e.command == QStringLiteral("Start Page") &&
                     e.keys == QKeySequence(Qt::CTRL | Qt::Key_Home).toString(QKeySequence::NativeText);
        QVERIFY(found);

        ShortcutsDialog dialog(again);
        QCOMPARE(dialog.table()->rowCount(), int(again.size()));
        QCOMPARE(dialog.table()->item(0, 1)->text(), again[0].command);
        w->close();
    }

    // Tooltips speak to the user, not about another tool.
    void tooltipsAreInPlainLanguage() {
        Answers a;
        auto w = makeWindow(a);
        w->dataPage()->loadFile(QStringLiteral("builtin:blobs"));
        QVERIFY(w->dataPage()->waitForLoad(hangGuardMs(30000)));
        QStringList tips;
        for (QWidget* widget : w->findChildren<QWidget*>()) {
            tips << widget->toolTip();
            if (auto* box = qobject_cast<QComboBox*>(widget))
                for (int i = 0; i < box->count(); ++i) tips << box->itemData(i, Qt::ToolTipRole).toString();
        }
        for (QAction* action : w->findChildren<QAction*>()) tips << action->toolTip();
        tips.removeAll(QString());
        QVERIFY(tips.size() > 40);
        for (const QString& tip : tips)
            for (const char* jargon : {"reference", "sk_tool", "Keras"})
                QVERIFY2(!tip.contains(QLatin1String(jargon), Qt::CaseInsensitive), qPrintable(tip));
        w->close();
    }

private:
    static void writeFileAtomicallyForTest(const QString& path, const QByteArray& bytes) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(f.write(bytes), qint64(bytes.size()));
    }
};

QTEST_MAIN(TestFiles)
#include "tst_files.moc"
