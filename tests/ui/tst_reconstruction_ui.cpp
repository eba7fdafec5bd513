// The reconstruction task (autoencoders, issue 26) in the desktop app, offscreen: the Data page's
// task choice reloads the data for it, the autoencoder preset sets the task with the network, and
// a short output-split run ends with the Results page's grid of test inputs and reconstructions,
// whose pixels are the models' own outputs, as it is again once the project is saved and reopened.
// The data is a CSV of 8x8 one-channel images (64 pixel columns and a class label), written here.
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <cmath>

#include "project/project_file.h"
#include "split/combined_model_file.h"
#include "test_shots.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/autosave.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/chart_util.h"
#include "ui/widgets/data_options_panel.h"
#include "ui/widgets/data_page.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/network_page.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/reconstruction_grid.h"
#include "ui/widgets/results_page.h"
#include "ui/widgets/sample_grid.h"
#include "ui/widgets/split_page.h"
#include "ui/widgets/train_page.h"
#include "window_open.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

constexpr int side = 8, pixels = side * side, classes = 4, samples = 400;
constexpr int autoencoderPreset = 7;  // in the Network page's menu, after the MLPs, CNNs and GRU

QString layersOf(const ProjectDocument& doc) { return QString::fromStdString(formatLayers(doc.network().layers)); }

// 8x8 images and their class: class c is a bright band in rows 2c and 2c+1 over dim noise.
void writeImages(const QString& path) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Text));
    QTextStream out(&f);
    for (int i = 0; i < pixels; ++i) out << "p" << i << ",";
    out << "label\n";
    quint32 state = 11;
    for (int n = 0; n < samples; ++n) {
        const int label = n % classes;
        for (int i = 0; i < pixels; ++i) {
            state = state * 1664525u + 1013904223u;
            out << (i / side / 2 == label ? 180 + int(state >> 27) : int(state >> 27)) << ",";
        }
        out << label << "\n";
    }
}

// The gray level a value in [0, 1] is drawn with: the scaled inputs of this data are in [0, 1].
int gray(float v) { return std::clamp(int(std::lround(255.0f * v)), 0, 255); }

// Each cell of `grid` row `row` against `expected` (samples x 64 values), for pixels the row's
// model produces (columns in [first, last)); the others must be drawn transparent. Also the
// painted widget, at each produced pixel's middle.
void checkRow(ReconstructionGrid* grid, int row, const Matrix& expected, int first, int last) {
    const QImage painted = grid->grab().toImage();
    const qreal ratio = painted.devicePixelRatio();
    for (int s = 0; s < grid->sampleCount(); ++s) {
        const QImage cell = grid->cellImage(row, s);
        QVERIFY2(!cell.isNull(), qPrintable(QStringLiteral("row %1 sample %2 not drawn").arg(row).arg(s)));
        QCOMPARE(cell.size(), QSize(side, side));
        const QRect at = grid->cellRect(row, s);
        for (int i = 0; i < pixels; ++i) {
            const QRgb c = cell.pixel(i % side, i / side);
            if (i < first || i >= last) {
                QCOMPARE(qAlpha(c), 0);
                continue;
            }
            const int want = gray(expected(s, i));
            QVERIFY2(qAlpha(c) == 255 && std::abs(qGray(c) - want) <= 1,
                     qPrintable(QStringLiteral("row %1 sample %2 pixel %3: %4, the model's %5")
                                    .arg(row)
                                    .arg(s)
                                    .arg(i)
                                    .arg(qGray(c))
                                    .arg(want)));
            // The middle of the pixel's block on screen, drawn without smoothing.
            const QPointF middle(at.left() + (i % side + 0.5) * at.width() / side,
                                 at.top() + (i / side + 0.5) * at.height() / side);
            const QRgb shown = painted.pixel((middle * ratio).toPoint());
            QVERIFY2(std::abs(qGray(shown) - want) <= 1, qPrintable(QStringLiteral("row %1 sample %2 pixel %3 shown %4")
                                                                        .arg(row)
                                                                        .arg(s)
                                                                        .arg(i)
                                                                        .arg(qGray(shown))));
        }
    }
}

}  // namespace

class TestReconstructionUi : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    ProjectDataSource images_;  // classification: the label column is the target
    QString project_;
    std::vector<QImage> cellsBefore_;  // the trained window's grid, every cell

    std::unique_ptr<MainWindow> makeWindow() {
        auto w = std::make_unique<MainWindow>(
            std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("settings.ini"))));
        failOnErrorDialogs(*w);
        w->projectController()->prompts().unsavedChanges = [](const QString&) { return QMessageBox::Discard; };
        w->projectController()->autosave()->setDirectory(dir_.filePath(QStringLiteral("recovery")));
        w->resize(1024, 680);
        w->show();
        return w;
    }

    static std::vector<QImage> everyCell(const ReconstructionGrid* grid) {
        std::vector<QImage> cells;
        for (int r = 0; r < int(grid->rows().size()); ++r)
            for (int s = 0; s < grid->sampleCount(); ++s) cells.push_back(grid->cellImage(r, s));
        return cells;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const QString csv = dir_.filePath(QStringLiteral("images.csv"));
        writeImages(csv);
        images_.train.path = csv.toStdString();
        images_.sampleShape = Shape{1, side, side};
        images_.scaling = Scaling::MinMax;
        project_ = dir_.filePath(QStringLiteral("autoencoder.skynnet"));
    }

    // The Task box's reconstruction reloads the same file for it, the label left out; undo brings
    // the classes back. Standardized inputs are no [0, 1] targets: MSE and a linear output then.
    void taskChoiceReloadsAsReconstruction() {
        ProjectDocument doc;
        DataPage page(&doc, nullptr, nullptr);
        page.resize(1024, 680);
        page.show();
        page.loadSettings(images_);
        QVERIFY(page.waitForLoad());
        QCOMPARE(doc.dataset()->task, Task::Classification);
        QComboBox* task = page.optionsPanel()->taskBox();
        const int item = task->findData(int(Task::Reconstruction));
        QVERIFY(item > 0);
        QCOMPARE(task->itemText(item), QStringLiteral("Reconstruction (autoencoder)"));
        task->setCurrentIndex(item);
        emit task->activated(item);
        QVERIFY(page.waitForLoad());
        QVERIFY2(page.errorText().isEmpty(), qPrintable(page.errorText()));

        const auto data = doc.dataset();
        QCOMPARE(data->task, Task::Reconstruction);
        QCOMPARE(doc.dataSettings().task, std::optional<Task>(Task::Reconstruction));
        QCOMPARE(doc.dataSettings().targetColumn, std::string("label"));  // the label is no pixel
        QCOMPARE(int(data->features.cols()), pixels);
        QCOMPARE(data->outputCount(), pixels);
        QCOMPARE(doc.network().outputs, pixels);
        QCOMPARE(doc.network().outputActivation, Activation::Sigmoid);
        QCOMPARE(doc.trainSettings().config.loss, LossKind::BinaryCrossEntropy);
        QCOMPARE(page.optionsPanel()->targetColumnBox()->currentText(), QStringLiteral("label"));
        QCOMPARE(page.optionsPanel()->targetColumnBox()->itemText(0), QStringLiteral("None: every column is an input"));
        bool summarised = false;
        for (const QLabel* l : page.findChildren<QLabel*>())
            summarised = summarised ||
                         l->text().contains(QStringLiteral("64 outputs (the input itself) · reconstruction"));
        QVERIFY(summarised);
        // No classes: rows of the first samples, and the input values' spread.
        QCOMPARE(page.sampleGrid()->classRows().size(), std::size_t(SampleGrid::classlessRows));
        QCOMPARE(page.sampleGrid()->classRows()[1].name, QStringLiteral("Samples 9–16"));
        QCOMPARE(page.sampleGrid()->classRows()[1].samples, (std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15}));
        QCOMPARE(page.classChart()->chart()->title(), QStringLiteral("Input values (the targets)"));
        shoot(&page, QStringLiteral("reconstruction-data-page"));

        doc.undoStack()->undo();
        QCOMPARE(doc.dataset()->task, Task::Classification);
        QCOMPARE(doc.network().outputs, classes);
        QCOMPARE(doc.trainSettings().config.loss, LossKind::SoftmaxCrossEntropy);
        doc.undoStack()->redo();
        QCOMPARE(doc.dataset()->task, Task::Reconstruction);

        // A loss chosen later sets the output the run will train (linear under MSE).
        ProjectTraining t = doc.trainSettings();
        t.config.loss = LossKind::MeanSquaredError;
        doc.editTrainSettings(t);
        QCOMPARE(doc.network().outputActivation, Activation::None);
        QCOMPARE(doc.plan().original.outputActivation, Activation::None);
        doc.undoStack()->undo();
        QCOMPARE(doc.network().outputActivation, Activation::Sigmoid);

        ProjectDataSource standardized = images_;
        standardized.scaling = Scaling::Standardize;
        standardized.task = Task::Reconstruction;
        standardized.targetColumn = "label";
        ProjectDocument other;
        other.load(standardized);
        QCOMPARE(other.trainSettings().config.loss, LossKind::MeanSquaredError);
        QCOMPARE(other.network().outputActivation, Activation::None);
    }

    // The autoencoder preset: the network and, as one more undo step, the data for reconstruction.
    void autoencoderPresetSetsTaskAndNetwork() {
        auto w = makeWindow();
        ProjectDocument* doc = w->document();
        doc->load(images_);
        doc->undoStack()->clear();
        QSignalSpy reloaded(w->dataPage(), &DataPage::loadFinished);
        w->networkPage()->applyPreset(autoencoderPreset);
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 1, hangGuardMs(30000));
        QVERIFY(reloaded.at(0).at(0).toBool());
        QCOMPARE(layersOf(*doc), QStringLiteral("dense:32:relu"));
        QCOMPARE(doc->dataset()->task, Task::Reconstruction);
        QCOMPARE(doc->network().input, (Shape{1, side, side}));
        QCOMPARE(doc->network().outputs, pixels);
        QCOMPARE(doc->network().outputActivation, Activation::Sigmoid);
        QCOMPARE(doc->trainSettings().config.loss, LossKind::BinaryCrossEntropy);
        QCOMPARE(QString::fromStdString(doc->network().widthsSummary()), QStringLiteral("64-32-64"));
        QCOMPARE(doc->undoStack()->count(), 2);  // the preset, then the data for reconstruction
        doc->undoStack()->undo();
        QCOMPARE(doc->dataset()->task, Task::Classification);
        QCOMPARE(layersOf(*doc), QStringLiteral("dense:32:relu"));
        doc->undoStack()->undo();
        QVERIFY(layersOf(*doc) != QStringLiteral("dense:32:relu"));
        // Already reconstructing: the preset is the network alone.
        doc->undoStack()->redo();
        doc->undoStack()->redo();
        w->networkPage()->applyPreset(0);
        w->networkPage()->applyPreset(autoencoderPreset);
        QTest::qWait(50);
        QCOMPARE(reloaded.count(), 1);
        QVERIFY(!w->dataPage()->isLoading());
        doc->setClean();
    }

    // One click to the autoencoder, a short output-split run, and the grid: inputs, the combined
    // model's reconstructions, each submodel's share and the baseline's, as their networks give them.
    void trainedRunShowsReconstructions() {
        auto w = makeWindow();
        ProjectDocument* doc = w->document();
        doc->load(images_);
        QSignalSpy reloaded(w->dataPage(), &DataPage::loadFinished);
        w->networkPage()->applyPreset(autoencoderPreset);
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 1, hangGuardMs(30000));
        w->splitPage()->setSubmodels(3);
        ProjectTraining t = doc->trainSettings();
        t.config.epochs = 10;  // a few milliseconds each: reconstructions worth a look in the picture
        t.config.batchSize = 16;
        t.config.resourceReportSeconds = 0.01;
        t.config.batchReportSeconds = 0.01;
        t.threadBudget = 2;
        t.trainBaseline = true;
        doc->setTrainSettings(t);
        QCOMPARE(doc->plan().strategy, Strategy::OutputSplit);

        QSignalSpy finished(w->session(), &TrainingSession::finished);
        w->trainPage()->startTraining();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(60000));
        QVERIFY2(finished.at(0).at(0).value<TrainStatus>() == TrainStatus::Completed,
                 qPrintable(finished.at(0).at(1).toString()));
        ResultsPage* results = w->resultsPage();
        w->showPage(MainWindow::ResultsPageIndex);
        QVERIFY(results->hasResults());
        QVERIFY2(results->headline()->text().contains(QStringLiteral("r2 ")) &&
                     results->headline()->text().contains(QStringLiteral(", MSE 0.")),
                 qPrintable(results->headline()->text()));
        QVERIFY(results->showsReconstructions());
        QTRY_VERIFY_WITH_TIMEOUT(!results->reconstructionsPending(), hangGuardMs(10000));
        ReconstructionGrid* grid = results->reconstructionGrid();
        QVERIFY(grid->isVisible());
        QCOMPARE(grid->sampleCount(), ReconstructionGrid::maxSamples);
        QStringList names;
        for (const auto& row : grid->rows()) names << row.name;
        QCOMPARE(names, (QStringList{QStringLiteral("input"), QStringLiteral("combined"), QStringLiteral("sub 1"),
                                     QStringLiteral("sub 2"), QStringLiteral("sub 3"), QStringLiteral("baseline")}));
        QVERIFY(results->reconstructionCaption()->text().contains(QStringLiteral("hatched pixels")));

        // Every drawn pixel against the networks run here on the same test inputs.
        const auto r = w->session()->results();
        QVERIFY(r && r->model);
        const Matrix inputs = doc->prepared()->test.features.topRows(ReconstructionGrid::maxSamples);
        QVERIFY((inputs - r->testTargets.topRows(inputs.rows())).cwiseAbs().maxCoeff() == 0.0f);
        CombinedModel model = buildCombinedModel(*r->model);
        checkRow(grid, 0, inputs, 0, pixels);
        checkRow(grid, 1, model.predict(inputs), 0, pixels);
        if (QTest::currentTestFailed()) return;
        for (int i = 0; i < 3; ++i) {
            const auto [first, last] = r->model->rule.columns[std::size_t(i)];
            QVERIFY(last - first >= pixels / 3);
            Matrix whole = Matrix::Zero(inputs.rows(), pixels);
            whole.middleCols(first, last - first) = model.submodel(i).predict(inputs);
            checkRow(grid, 2 + i, whole, first, last);
            if (QTest::currentTestFailed()) return;
        }
        checkRow(grid, 5, r->baselineTestOutput.topRows(inputs.rows()), 0, pixels);
        if (QTest::currentTestFailed()) return;
        shoot(w.get(), QStringLiteral("reconstruction-results"));
        cellsBefore_ = everyCell(grid);

        // Autosave writes the reconstruction project; Save keeps it with the run's weights.
        Autosave* autosave = w->projectController()->autosave();
        QSignalSpy autosaved(autosave, &Autosave::saved);
        QVERIFY(autosave->saveNow());
        autosave->waitForSave();
        QCOMPARE(autosaved.count(), 1);
        const ProjectData recovered = loadProject(autosaved.at(0).at(0).toString().toStdString());
        QCOMPARE(recovered.data.task, std::optional<Task>(Task::Reconstruction));
        QCOMPARE(recovered.data.targetColumn, std::string("label"));
        QVERIFY(w->projectController()->saveTo(project_));
        const ProjectData saved = loadProject(project_.toStdString());
        QCOMPARE(saved.runs.size(), std::size_t(1));
        QVERIFY(saved.runs[0].results && saved.runs[0].results->model);
        QCOMPARE(saved.runs[0].plan.task, Task::Reconstruction);
        QVERIFY(w->close());
    }

    // The saved project shows the same grid, its submodels rebuilt from the saved weights.
    void reopenedProjectShowsTheSameGrid() {
        QVERIFY(!cellsBefore_.empty());
        auto w = makeWindow();
        QVERIFY(openAndWait(w.get(), project_));
        QCOMPARE(w->document()->dataset()->task, Task::Reconstruction);
        QCOMPARE(w->document()->network().outputActivation, Activation::Sigmoid);
        w->showPage(MainWindow::ResultsPageIndex);
        ResultsPage* results = w->resultsPage();
        QVERIFY(results->showsReconstructions());
        QTRY_VERIFY_WITH_TIMEOUT(!results->reconstructionsPending(), hangGuardMs(10000));
        const std::vector<QImage> cells = everyCell(results->reconstructionGrid());
        QCOMPARE(cells.size(), cellsBefore_.size());
        for (std::size_t i = 0; i < cells.size(); ++i)
            QVERIFY2(cells[i] == cellsBefore_[i], qPrintable(QString::number(i)));
        shoot(w.get(), QStringLiteral("reconstruction-results-reopened"));

        // Without the run's weights the submodels cannot be drawn: the caption says so, and the
        // inputs, the combined model's and the baseline's test outputs are still shown.
        QVERIFY(w->document()->dropRunWeights(0));
        const QString light = dir_.filePath(QStringLiteral("light.skynnet"));
        QVERIFY(w->projectController()->saveTo(light));
        QVERIFY(!loadProject(light.toStdString()).runs[0].results->model);
        auto v = makeWindow();
        QVERIFY(openAndWait(v.get(), light));
        v->showPage(MainWindow::ResultsPageIndex);
        const ReconstructionGrid* grid = v->resultsPage()->reconstructionGrid();
        QVERIFY(!v->resultsPage()->reconstructionsPending());
        QStringList names;
        for (const auto& row : grid->rows()) names << row.name;
        QCOMPARE(names, (QStringList{QStringLiteral("input"), QStringLiteral("combined"), QStringLiteral("baseline")}));
        QVERIFY(v->resultsPage()->reconstructionCaption()->text().contains(QStringLiteral("were not kept")));
        const std::size_t perRow = std::size_t(grid->sampleCount());
        for (std::size_t s = 0; s < perRow; ++s) {
            QVERIFY(grid->cellImage(0, int(s)) == cellsBefore_[s]);               // the inputs
            QVERIFY(grid->cellImage(1, int(s)) == cellsBefore_[perRow + s]);      // the combined model's
            QVERIFY(grid->cellImage(2, int(s)) == cellsBefore_[5 * perRow + s]);  // the baseline's
        }
    }
};

QTEST_MAIN(TestReconstructionUi)
#include "tst_reconstruction_ui.moc"
