// The Vision Transformer in the app (issue 27), offscreen: the layer form's transformer fields
// (patch size, dimensions, class token, heads, dropout, causal) with their checks and undo steps,
// the diagram's blocks that open to show their inside, and a small ViT split into class groups
// trained in the main window beside its baseline, saved, reopened and predicting the same bits.
// The data is a CSV of 8x8 one-channel images, class c bright in quadrant c, written by the test.
#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "export/onnx_export.h"
#include "matrix_support.h"
#include "split/combined_model_file.h"
#include "test_shots.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/layer_table_model.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/export_dialog.h"
#include "ui/widgets/layer_editor.h"
#include "ui/widgets/live_chart.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/network_diagram.h"
#include "ui/widgets/network_page.h"
#include "ui/widgets/open_model_dialog.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/results_page.h"
#include "ui/widgets/split_page.h"
#include "ui/widgets/train_page.h"
#include "ui/widgets/training_charts.h"
#include "window_open.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

constexpr int side = 8, classes = 4, rows = 480;
const char* const smallVit = "patch:4:16:cls,encoder:2:32,attention:2,layernorm,seqpool:cls";

QString layersOf(const ProjectDocument& doc) { return QString::fromStdString(formatLayers(doc.network().layers)); }

// 8x8 images: class c has its bright 4x4 quadrant c (row-major), the rest noise.
void writeImages(const QString& path) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Text));
    QTextStream out(&f);
    for (int i = 0; i < side * side; ++i) out << "p" << i << ",";
    out << "label\n";
    quint32 state = 11;
    for (int n = 0; n < rows; ++n) {
        const int label = n % classes;
        for (int y = 0; y < side; ++y)
            for (int x = 0; x < side; ++x) {
                state = state * 1664525u + 1013904223u;
                const bool bright = (y / 4) * 2 + x / 4 == label;
                out << (bright ? 150 + int(state >> 26) : int(state >> 26)) << ",";
            }
        out << label << "\n";
    }
}

template <class Box>
Box* field(LayerEditor* editor, int column) {
    auto* box = qobject_cast<Box*>(editor->fieldEditor(column));
    return box && box->isVisible() ? box : nullptr;
}

}  // namespace

class TestVitUi : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    ProjectDataSource images_;

    void open(ProjectDocument& doc) {
        doc.load(images_);
        NetworkSpec n = doc.network();
        n.layers = parseLayers(smallVit);
        doc.setNetwork(n);
        doc.undoStack()->clear();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const QString csv = dir_.filePath(QStringLiteral("quadrants.csv"));
        writeImages(csv);
        images_.train.path = csv.toStdString();
        images_.sampleShape = Shape{1, side, side};
        images_.scaling = Scaling::MinMax;
    }

    // Each transformer kind's form has its own fields, named for the kind; every change is one
    // undo step, and a setting the next layers cannot take shows in their row.
    void formEditsTransformerFields() {
        ProjectDocument doc;
        open(doc);
        NetworkPage page(&doc);
        page.resize(1024, 680);
        page.show();
        LayerEditor* editor = page.layerEditor();
        LayerTableModel* model = page.layerModel();
        QVERIFY2(!page.hasErrors(), qPrintable(page.problemsText()));

        page.table()->selectRow(0);  // patch
        QCOMPARE(editor->title(), QStringLiteral("Layer 1: patch"));
        auto* dims = field<QSpinBox>(editor, LayerTableModel::Units);
        auto* cls = field<QCheckBox>(editor, LayerTableModel::ClassToken);
        QVERIFY(dims && cls && editor->kernelHeightBox()->isVisible());
        QVERIFY(!editor->kernelWidthBox()->isVisible());  // square patches: one size
        QVERIFY(!editor->fieldEditor(LayerTableModel::Heads));
        QCOMPARE(dims->value(), 16);
        QCOMPARE(editor->kernelHeightBox()->value(), 4);
        QVERIFY(cls->isChecked());
        shoot(&page, QStringLiteral("vit-form-patch"));
        editor->kernelHeightBox()->setValue(3);  // 8x8 images do not tile into 3x3 patches
        QCOMPARE(std::get<PatchSpec>(doc.network().layers[0]).patch, 3);
        QCOMPARE(model->problem(0), QStringLiteral("patch 3x3 16 cls: 8x8 images do not divide into 3x3 patches"));
        doc.undoStack()->undo();
        QCOMPARE(std::get<PatchSpec>(doc.network().layers[0]).patch, 4);
        cls->setChecked(false);
        QCOMPARE(model->index(0, LayerTableModel::OutputShape).data().toString(), QStringLiteral("4 steps × 16"));
        doc.undoStack()->undo();
        QCOMPARE(model->index(0, LayerTableModel::OutputShape).data().toString(), QStringLiteral("5 steps × 16"));

        page.table()->selectRow(1);  // encoder
        QCOMPARE(editor->title(), QStringLiteral("Layer 2: encoder"));
        auto* heads = field<QSpinBox>(editor, LayerTableModel::Heads);
        auto* dropout = field<QDoubleSpinBox>(editor, LayerTableModel::Rate);
        auto* mlp = field<QSpinBox>(editor, LayerTableModel::Units);
        QVERIFY(heads && dropout && mlp && field<QCheckBox>(editor, LayerTableModel::Scalable));
        QVERIFY(!editor->fieldEditor(LayerTableModel::Causal));
        QCOMPARE(heads->value(), 2);
        QCOMPARE(mlp->value(), 32);
        shoot(&page, QStringLiteral("vit-form-encoder"));
        heads->setValue(3);  // 16 features do not divide into 3 heads: the encoder's row says so
        QCOMPARE(model->problem(1), QStringLiteral("encoder 3 heads mlp 32: 16 features do not divide into 3 heads"));
        QVERIFY(page.hasErrors());
        doc.undoStack()->undo();
        QVERIFY(!page.hasErrors());
        dropout->setValue(0.1);
        mlp->setValue(48);
        QCOMPARE(model->index(1, LayerTableModel::Summary).data().toString(),
                 QStringLiteral("2 heads · MLP 48 gelu · dropout 0.1"));
        QCOMPARE(doc.undoStack()->count(), 2);
        QVERIFY(!model->setData(model->index(1, LayerTableModel::Rate), 1.0));  // refused, unchanged
        QCOMPARE(std::get<EncoderSpec>(doc.network().layers[1]).dropout, 0.1f);

        page.table()->selectRow(2);  // attention
        auto* causal = field<QCheckBox>(editor, LayerTableModel::Causal);
        QVERIFY(causal && field<QSpinBox>(editor, LayerTableModel::Heads));
        QVERIFY(!editor->fieldEditor(LayerTableModel::Units));  // as wide as its input: no width
        QVERIFY(!causal->isChecked());
        causal->setChecked(true);
        QVERIFY(std::get<AttentionSpec>(doc.network().layers[2]).causal);
        QCOMPARE(layersOf(doc), QStringLiteral("patch:4:16:cls,encoder:2:48:0.1,attention:2:causal,layernorm,"
                                               "seqpool:cls"));
        doc.undoStack()->undo();
        QVERIFY(!std::get<AttentionSpec>(doc.network().layers[2]).causal);
        page.table()->selectRow(3);
        QCOMPARE(editor->title(), QStringLiteral("Layer 4: layernorm"));
    }

    // An encoder block is one box in the diagram; a click opens it to its steps, with their
    // shapes, and another closes it. It stays open through an edit of its settings.
    void diagramOpensBlocks() {
        ProjectDocument doc;
        open(doc);
        NetworkPage page(&doc);
        page.resize(1024, 680);
        page.show();
        NetworkDiagram* diagram = page.diagram();
        QCOMPARE(diagram->blockTexts().mid(0, 3),
                 (QStringList{QStringLiteral("input · 1×8×8"), QStringLiteral("patch 4x4 16 cls · 5 steps × 16"),
                              QStringLiteral("encoder 2 heads mlp 32 · 5 steps × 16")}));
        QCOMPARE(diagram->blocks()[2].kind, NetworkDiagram::BlockKind::Attention);
        QVERIFY(diagram->canOpen(1) && diagram->canOpen(2) && diagram->canOpen(3));
        QVERIFY(!diagram->canOpen(0) && !diagram->canOpen(4) && !diagram->canOpen(5));
        const int closedHeight = diagram->sizeHint().height();
        const QRect layerNormBefore = diagram->blockRect(4);
        QTest::mouseClick(diagram, Qt::LeftButton, {}, diagram->blockRect(2).center());
        QVERIFY(diagram->isOpen(2));
        QStringList steps;
        for (const InsideStep& s : diagram->blocks()[2].inside) steps << s.title + QStringLiteral(" · ") + s.shape;
        QCOMPARE(steps,
                 (QStringList{QStringLiteral("layernorm · 5 steps × 16"),
                              QStringLiteral("2-head attention · 5 steps × 16"),
                              QStringLiteral("+ residual · 5 steps × 16"), QStringLiteral("layernorm · 5 steps × 16"),
                              QStringLiteral("dense 32 gelu · 5 steps × 32"), QStringLiteral("dense 16 · 5 steps × 16"),
                              QStringLiteral("+ residual · 5 steps × 16")}));
        QCOMPARE(diagram->blocks()[2].inside[1].detail,
                 QStringLiteral("each of the 2 heads reads 8 of a token's 16 features"));
        QVERIFY(diagram->sizeHint().height() > closedHeight);
        QVERIFY(diagram->blockRect(4).top() > layerNormBefore.bottom());  // the blocks below move down
        QVERIFY(diagram->stepRect(2, 6).bottom() < diagram->blockRect(3).top());
        diagram->setOpen(1, true);
        QCOMPARE(diagram->blocks()[1].inside.back().title, QStringLiteral("+ learned positions"));
        QCOMPARE(diagram->blocks()[1].inside.front().shape, QStringLiteral("4 steps × 16"));  // 4 patches of 16
        QVERIFY(!diagram->grab().isNull());
        shoot(&page, QStringLiteral("vit-diagram-open"));
        NetworkSpec n = doc.network();
        std::get<EncoderSpec>(n.layers[0 + 1]).mlp = 24;
        doc.editNetwork(n);
        QVERIFY(diagram->isOpen(2));
        QCOMPARE(diagram->blocks()[2].inside[4].title, QStringLiteral("dense 24 gelu"));
        QTest::mouseClick(diagram, Qt::LeftButton, {}, diagram->blockRect(2).center());
        QVERIFY(!diagram->isOpen(2));
        QTest::mouseClick(diagram, Qt::LeftButton, {}, diagram->blockRect(4).center());  // layernorm: nothing
        QVERIFY(!diagram->isOpen(4));
    }

    // Trained in the app: a ViT split into three class groups beside its baseline, with live charts
    // and results; exported in every format and measured by Open Model; saved and reopened in another
    // window, the same network, weights and predictions.
    void vitTrainsSavesAndReopens() {
        MainWindow w(std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("settings.ini"))));
        failOnErrorDialogs(w);
        w.resize(1024, 680);
        w.show();
        ProjectDocument* doc = w.document();
        open(*doc);
        w.splitPage()->setStrategy(Strategy::ClassGroups);
        w.splitPage()->setSubmodels(3);  // three groups: three pairwise submodels
        ProjectTraining t = doc->trainSettings();
        t.config.epochs = 20;
        t.config.batchSize = 32;
        t.config.optimizer.learningRate = 3e-3f;
        t.config.resourceReportSeconds = 0.01;
        t.config.batchReportSeconds = 0.01;
        t.threadBudget = 2;
        t.trainBaseline = true;
        doc->setTrainSettings(t);
        QVERIFY2(!w.networkPage()->hasErrors(), qPrintable(w.networkPage()->problemsText()));
        w.showPage(MainWindow::NetworkPageIndex);
        w.networkPage()->diagram()->setOpen(2, true);
        shoot(&w, QStringLiteral("vit-window-network"));

        QSignalSpy finished(w.session(), &TrainingSession::finished);
        w.trainPage()->startTraining();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(180000));
        QVERIFY2(finished.at(0).at(0).value<TrainStatus>() == TrainStatus::Completed,
                 qPrintable(finished.at(0).at(1).toString()));
        const int models = doc->plan().submodelCount() + 1;
        QCOMPARE(models, 4);
        QCOMPARE(w.trainPage()->epochTable()->model()->rowCount(), 20 * models);
        QCOMPARE(w.trainPage()->charts()->metricChart()->seriesCount(), models);
        const auto results = w.session()->results();
        QVERIFY(results && results->model);
        // The quadrants are easy: the combined model and the baseline both learn them.
        QVERIFY2(results->combinedMetric > 0.9 && results->baselineMetric > 0.9,
                 qPrintable(QStringLiteral("%1 %2").arg(results->combinedMetric).arg(results->baselineMetric)));
        w.showPage(MainWindow::TrainPageIndex);
        shoot(&w, QStringLiteral("vit-window-trained"));
        w.showPage(MainWindow::ResultsPageIndex);
        shoot(&w, QStringLiteral("vit-window-results"));

        // Exported from the app in every format, and File > Open Model measures the native file on the
        // images themselves.
        for (const auto format : {ExportDialog::CppHeader, ExportDialog::Onnx}) {
            if (format == ExportDialog::Onnx && !onnxExportAvailable()) continue;
            ExportDialog dialog(*results->model, dir_.filePath(QStringLiteral("vit")));
            dialog.setFormat(format);
            QVERIFY2(dialog.exportNow(), qPrintable(dialog.statusText()));
            QVERIFY(!dialog.writtenFiles().isEmpty() && QFileInfo(dialog.writtenFiles().front()).size() > 0);
        }
        const QString modelFile = dir_.filePath(QStringLiteral("vit.skym"));
        ExportDialog native(*results->model, modelFile);
        native.setFormat(ExportDialog::NativeModel);
        QVERIFY2(native.exportNow(), qPrintable(native.statusText()));
        OpenModelDialog opened(nullptr);
        QVERIFY2(opened.loadModel(modelFile), qPrintable(opened.statusText()));
        opened.setDataPath(QString::fromStdString(images_.train.path));
        QVERIFY2(opened.evaluate(), qPrintable(opened.statusText()));
        QVERIFY2(opened.metricText().startsWith("accuracy ") && opened.metricText().endsWith(" on 480 samples"),
                 qPrintable(opened.metricText()));
        QVERIFY2(opened.metricText().mid(9, 6).toDouble() >= 0.9, qPrintable(opened.metricText()));

        const Matrix predicted = buildCombinedModel(*results->model).predict(doc->prepared()->test.features);
        const QString project = dir_.filePath(QStringLiteral("vit.skynnet"));
        QVERIFY(w.projectController()->saveTo(project));
        MainWindow other(std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("other.ini"))));
        other.show();
        QVERIFY(openAndWait(&other, project));
        QCOMPARE(other.document()->network(), doc->network());
        const ProjectRun* reopened = other.document()->shownRunRecord();
        QVERIFY(reopened && reopened->results && reopened->results->model);
        QVERIFY(reopened->results->model->weights == results->model->weights);
        CombinedModel rebuilt = buildCombinedModel(*reopened->results->model);
        QVERIFY(sameBits(rebuilt.predict(other.document()->prepared()->test.features), predicted));
        doc->undoStack()->clear();
        doc->setClean();
    }
};

QTEST_MAIN(TestVitUi)
#include "tst_vit_ui.moc"
