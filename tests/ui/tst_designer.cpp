// The network designer for CNNs, offscreen: image layers in the layer table and the per-layer
// form, their undo steps, an impossible shape in its row and in the network check, the drawn
// diagram on the Network page and per submodel on the Split page, and the CNN presets. The data is
// a tiny IDX image set (8x8 pixels, 10 classes as IDX declares them) written by the test.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDataStream>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <cstring>

#include "model/network.h"
#include "split/combined_model_file.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/autosave.h"
#include "ui/core/formatting.h"
#include "ui/core/layer_table_model.h"
#include "ui/core/network_figures.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/examples.h"
#include "ui/widgets/layer_editor.h"
#include "ui/widgets/live_chart.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/network_check.h"
#include "ui/widgets/network_diagram.h"
#include "ui/widgets/network_page.h"
#include "ui/widgets/project_controller.h"
#include "ui/widgets/results_page.h"
#include "ui/widgets/split_page.h"
#include "ui/widgets/train_page.h"
#include "ui/widgets/training_charts.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

constexpr int side = 8;
const char* const smallCnn = "conv:8:3x3:relu,maxpool:2,flatten,dense:16:relu";

// Ten classes a CNN tells apart, over noise: a bright row 0-7 (classes 0-7) or column 1 or 6 (8, 9).
QByteArray images(int count, std::vector<quint8>& labels) {
    QByteArray out;
    QDataStream s(&out, QIODevice::WriteOnly);
    s << quint32(0x00000803) << quint32(count) << quint32(side) << quint32(side);
    quint32 state = 12345;
    const auto next = [&] { return state = state * 1664525u + 1013904223u; };
    for (int n = 0; n < count; ++n) {
        const int label = n % 10;
        labels.push_back(quint8(label));
        for (int r = 0; r < side; ++r)
            for (int c = 0; c < side; ++c) {
                const bool on = label < 8 ? r == label : c == (label == 8 ? 1 : 6);
                s << quint8(on ? 200 + int(next() >> 28) : int(next() >> 27));
            }
    }
    return out;
}

QByteArray labelFile(const std::vector<quint8>& labels) {
    QByteArray out;
    QDataStream s(&out, QIODevice::WriteOnly);
    s << quint32(0x00000801) << quint32(labels.size());
    for (quint8 l : labels) s << l;
    return out;
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

QString layersOf(const ProjectDocument& doc) { return QString::fromStdString(formatLayers(doc.network().layers)); }

bool sameBits(const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0;
}

// Every cell's display text, row by row.
QStringList cells(const QAbstractItemModel* m) {
    QStringList out;
    for (int r = 0; r < m->rowCount(); ++r)
        for (int c = 0; c < m->columnCount(); ++c) out << m->index(r, c).data().toString();
    return out;
}

// The combined model's outputs on the prepared test rows, then the baseline's beside them.
Matrix testPredictions(MainWindow* w) {
    const auto results = w->session()->results();
    const auto plan = w->session()->plan();
    if (!results || !results->model || !results->baselineWeights || !plan) return {};
    const Matrix& test = w->document()->prepared()->test.features;
    const Matrix combined = buildCombinedModel(*results->model).predict(test);
    Network baseline(plan->original, 0);
    baseline.setFlatWeights(*results->baselineWeights);
    const Matrix alone = baseline.predict(test);
    Matrix both(test.rows(), combined.cols() + alone.cols());
    both << combined, alone;
    return both;
}

}  // namespace

class TestDesigner : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    ProjectDataSource images_;

    // A document with the tiny image set and `layers`, its undo history empty.
    void open(ProjectDocument& doc, const char* layers = smallCnn) {
        doc.load(images_);
        NetworkSpec n = doc.network();
        n.layers = parseLayers(layers);
        doc.setNetwork(n);
        doc.undoStack()->clear();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        std::vector<quint8> train, test;
        writeFile(dir_.filePath(QStringLiteral("tiny-images-idx3-ubyte")), images(240, train));
        writeFile(dir_.filePath(QStringLiteral("tiny-labels-idx1-ubyte")), labelFile(train));
        writeFile(dir_.filePath(QStringLiteral("t10k-images-idx3-ubyte")), images(60, test));
        writeFile(dir_.filePath(QStringLiteral("t10k-labels-idx1-ubyte")), labelFile(test));
        images_.train.path = dir_.filePath(QStringLiteral("tiny-images-idx3-ubyte")).toStdString();
        images_.test.path = dir_.filePath(QStringLiteral("t10k-images-idx3-ubyte")).toStdString();
        images_.scaling = Scaling::MinMax;
    }

    void tableShowsImageShapesAndFigures() {
        ProjectDocument doc;
        open(doc);
        QCOMPARE(doc.network().input, (Shape{1, side, side}));
        LayerTableModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 5);
        const auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
            return model.index(row, column).data(role);
        };
        QCOMPARE(cell(0, LayerTableModel::Type).toString(), QStringLiteral("conv"));
        QCOMPARE(cell(0, LayerTableModel::Summary).toString(), QStringLiteral("8 filters · 3×3 · valid · relu"));
        QCOMPARE(cell(1, LayerTableModel::Summary).toString(), QStringLiteral("2×2"));
        const QStringList shapes{QStringLiteral("8×6×6"), QStringLiteral("8×3×3"), QStringLiteral("72"),
                                 QStringLiteral("16"), QStringLiteral("10")};
        for (int r = 0; r < 5; ++r) QCOMPARE(cell(r, LayerTableModel::OutputShape).toString(), shapes[r]);
        QCOMPARE(cell(0, LayerTableModel::Params).toLongLong(), 1LL * 9 * 8 + 8);  // W [8][1][3][3] and b [8]
        QCOMPARE(cell(0, LayerTableModel::Flops, SortRole).toLongLong(), 2LL * 9 * 8 * 6 * 6);
        QCOMPARE(cell(0, LayerTableModel::Flops).toString(), formatFlops(2LL * 9 * 8 * 6 * 6));  // "5.18 k"
        QCOMPARE(cell(1, LayerTableModel::Flops, SortRole).toLongLong(),
                 8LL * 3 * 3 * 4);  // a comparison per window value
        QCOMPARE(cell(3, LayerTableModel::Params).toLongLong(), 72LL * 16 + 16);
        // Each row's training memory; with the gathered input batch they make the network's estimate.
        const TrainConfig& t = doc.trainSettings().config;
        const int optimizerSlots = slotsPerParam(t.optimizer.kind, t.optimizer.momentum);
        std::int64_t sum = std::int64_t(t.batchSize) * side * side * 4;
        for (int r = 0; r < 5; ++r) sum += cell(r, LayerTableModel::Memory, SortRole).toLongLong();
        QCOMPARE(sum, trainingMemoryBytes(doc.network(), t.batchSize, optimizerSlots));
        // In one unit for the column, the largest row's, named in the header.
        QCOMPARE(cell(0, LayerTableModel::Memory).toString(),
                 model.memoryUnit().format(layerTrainingBytes(figures(doc.network().layers[0], doc.network().input),
                                                              t.batchSize, optimizerSlots)));
        QCOMPARE(model.headerData(LayerTableModel::Memory, Qt::Horizontal).toString(),
                 QStringLiteral("Memory (%1)").arg(model.memoryUnit().name));
        // Only the fields of each kind are editable.
        const auto editable = [&](int row, int column) {
            return bool(model.flags(model.index(row, column)) & (Qt::ItemIsEditable | Qt::ItemIsUserCheckable));
        };
        for (int c :
             {LayerTableModel::Units, LayerTableModel::Kernel, LayerTableModel::Stride, LayerTableModel::Padding,
              LayerTableModel::Activation, LayerTableModel::Bias, LayerTableModel::Scalable})
            QVERIFY(editable(0, c));
        for (int c : {LayerTableModel::Rate, LayerTableModel::Momentum, LayerTableModel::Epsilon})
            QVERIFY(!editable(0, c));
        QVERIFY(editable(1, LayerTableModel::Kernel) && editable(1, LayerTableModel::Stride));
        QVERIFY(!editable(1, LayerTableModel::Padding) && !editable(1, LayerTableModel::Units));
        QVERIFY(!editable(2, LayerTableModel::Units) && !editable(2, LayerTableModel::Kernel));
        // The memory column follows the batch size.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        ProjectTraining bigger = doc.trainSettings();
        bigger.config.batchSize *= 2;
        doc.setTrainSettings(bigger);
        QVERIFY(changed.count() >= 1);
        QCOMPARE(cell(0, LayerTableModel::Memory, SortRole).toLongLong(),
                 layerTrainingBytes(figures(doc.network().layers[0], doc.network().input), bigger.config.batchSize,
                                    optimizerSlots));
    }

    void imageFieldEditsAreNamedUndoSteps() {
        ProjectDocument doc;
        open(doc);
        LayerTableModel model(&doc);
        QUndoStack* stack = doc.undoStack();
        const auto set = [&](int row, int column, const QVariant& v, int role = Qt::EditRole) {
            return model.setData(model.index(row, column), v, role);
        };
        const auto shape = [&](int row) { return model.index(row, LayerTableModel::OutputShape).data().toString(); };
        const QString before = layersOf(doc);

        QVERIFY(set(0, LayerTableModel::Units, 16));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 filters to 16"));
        QVERIFY(set(0, LayerTableModel::Units, 24));  // the same spin box: one step
        QCOMPARE(stack->count(), 1);
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 filters to 24"));
        doc.sealEdits();  // the box was left
        QVERIFY(set(0, LayerTableModel::Kernel, QStringLiteral("5x3")));
        QCOMPARE(stack->count(), 2);
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 kernel to 5x3"));
        QCOMPARE(shape(0), QStringLiteral("24×4×6"));
        QVERIFY(set(0, LayerTableModel::Padding, QStringLiteral("same")));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 padding to same"));
        QCOMPARE(shape(0), QStringLiteral("24×8×8"));
        QVERIFY(set(0, LayerTableModel::Stride, 2));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 stride to 2"));
        QCOMPARE(shape(0), QStringLiteral("24×4×4"));
        QVERIFY(set(0, LayerTableModel::Activation, QStringLiteral("tanh")));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 activation to tanh"));
        QVERIFY(set(0, LayerTableModel::Bias, Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 bias off"));
        QCOMPARE(model.index(0, LayerTableModel::Params).data().toLongLong(), 24LL * 5 * 3);
        QVERIFY(set(0, LayerTableModel::Scalable, Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 scalable off"));
        QCOMPARE(layersOf(doc).section(QLatin1Char(','), 0, 0), QStringLiteral("conv:24:5x3:s2:same:nobias:tanh"));
        QVERIFY(!std::get<ConvSpec>(doc.network().layers[0]).scalable);
        QVERIFY(set(1, LayerTableModel::Kernel, 3));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 2 window to 3"));
        QVERIFY(set(1, LayerTableModel::Stride, 1));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 2 stride to 1"));
        QCOMPARE(shape(1), QStringLiteral("24×2×2"));
        QCOMPARE(model.index(1, LayerTableModel::Summary).data().toString(), QStringLiteral("3×3 · stride 1"));

        // Refused values leave the network as it was, with the reason.
        QSignalSpy rejected(&model, &LayerTableModel::editRejected);
        const QString designed = layersOf(doc);
        QVERIFY(!set(0, LayerTableModel::Kernel, QStringLiteral("3x")));
        QVERIFY(!set(0, LayerTableModel::Units, 0));
        QVERIFY(!set(0, LayerTableModel::Stride, 0));
        QVERIFY(!set(0, LayerTableModel::Padding, QStringLiteral("full")));
        QVERIFY(!set(1, LayerTableModel::Kernel, QStringLiteral("2x3")));
        QVERIFY(!set(1, LayerTableModel::Stride, -1));
        QVERIFY(!set(1, LayerTableModel::Padding, QStringLiteral("same")));  // a pool has no padding
        QCOMPARE(rejected.count(), 6);
        QCOMPARE(rejected.at(0).at(0).toString(),
                 QStringLiteral("layer 1: a kernel is height x width, each at least 1 (e.g. 3x3), not '3x'"));
        QCOMPARE(rejected.at(1).at(0).toString(),
                 QStringLiteral("layer 1: filters must be a whole number of at least 1"));
        QCOMPARE(rejected.at(3).at(0).toString(),
                 QStringLiteral("layer 1: unknown padding 'full' (expected valid or same)"));
        QCOMPARE(rejected.at(4).at(0).toString(),
                 QStringLiteral("layer 2: a pooling window is one size of at least 1 (e.g. 2), not '2x3'"));
        QCOMPARE(layersOf(doc), designed);

        // Batch norm: momentum and epsilon.
        QVERIFY(model.addLayer(1, BatchNormSpec{}));
        QCOMPARE(stack->undoText(), QStringLiteral("Add layer 2"));
        QCOMPARE(model.index(1, LayerTableModel::Params).data().toLongLong(), 2LL * 24);  // scale and shift per channel
        QVERIFY(set(1, LayerTableModel::Momentum, 0.25));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 2 momentum to 0.25"));
        QVERIFY(set(1, LayerTableModel::Epsilon, QStringLiteral("1e-3")));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 2 epsilon to 0.001"));
        QCOMPARE(model.index(1, LayerTableModel::Summary).data().toString(), QStringLiteral("momentum 0.25 · ε 0.001"));
        QVERIFY(!set(1, LayerTableModel::Momentum, 0.0));
        QVERIFY(!set(1, LayerTableModel::Epsilon, QStringLiteral("0")));
        QVERIFY(!set(1, LayerTableModel::Epsilon, QStringLiteral("tiny")));
        QCOMPARE(std::get<BatchNormSpec>(doc.network().layers[1]).epsilon, 1e-3f);
        // Another type: that type's usual settings.
        QVERIFY(set(1, LayerTableModel::Type, QStringLiteral("avgpool")));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 2 type"));
        QVERIFY(std::get<AvgPoolSpec>(doc.network().layers[1]) == AvgPoolSpec{});
        QVERIFY(set(1, LayerTableModel::Type, QStringLiteral("gap")));
        QCOMPARE(model.index(1, LayerTableModel::OutputShape).data().toString(), QStringLiteral("24×1×1"));

        while (stack->canUndo()) stack->undo();
        QCOMPARE(layersOf(doc), before);
        QCOMPARE(model.index(0, LayerTableModel::OutputShape).data().toString(), QStringLiteral("8×6×6"));
    }

    void impossibleShapeIsShownInItsRowAndChecked() {
        ProjectDocument doc;
        open(doc, "conv:8:3x3:relu,maxpool:2,conv:8:5x5:relu,flatten,dense:4:relu");
        LayerTableModel model(&doc);
        const QString message = QStringLiteral(
            "conv 8 5x5 relu: kernel 5x5 is larger than its 3x3 input (use same padding or a smaller kernel)");
        QCOMPARE(model.problem(2), message);
        QVERIFY(model.problem(1).isEmpty());
        QCOMPARE(model.index(2, LayerTableModel::Type).data(Qt::ToolTipRole).toString(), message);
        QCOMPARE(model.index(2, LayerTableModel::Summary).data(Qt::ToolTipRole).toString(), message);
        QCOMPARE(model.index(2, LayerTableModel::Type).data(Qt::BackgroundRole).value<QColor>(),
                 QColor(0xfd, 0xe2, 0xe1));
        QVERIFY(!model.index(1, LayerTableModel::Type).data(Qt::BackgroundRole).isValid());
        QCOMPARE(model.index(2, LayerTableModel::OutputShape).data().toString(), QStringLiteral("impossible"));
        QVERIFY(!model.index(2, LayerTableModel::Params).data().isValid());
        // The rows after it have no input shape to go on.
        QCOMPARE(model.index(3, LayerTableModel::OutputShape).data().toString(), QStringLiteral("?"));
        QCOMPARE(model.index(5, LayerTableModel::OutputShape).data().toString(), QStringLiteral("?"));
        QVERIFY(!model.index(5, LayerTableModel::Params).data().isValid());

        const NetworkCheck check = checkNetwork(doc);
        QVERIFY2(check.errors.contains(QStringLiteral("Layer 3: ") + message + QLatin1Char('.')),
                 qPrintable(check.errors.join('\n')));
        NetworkPage page(&doc);
        QVERIFY(page.hasErrors());
        QVERIFY(page.problemsText().contains(QStringLiteral("Error: Layer 3: ") + message));
        QCOMPARE(page.diagram()->blocks()[3].problem, message);  // the input is block 0
        QCOMPARE(page.diagram()->blocks()[3].shape, QStringLiteral("impossible"));
        QCOMPARE(page.diagram()->blocks()[4].shape, QStringLiteral("?"));

        // Same padding makes it possible: the row, the check and the diagram follow.
        QVERIFY(model.setData(model.index(2, LayerTableModel::Padding), QStringLiteral("same")));
        QVERIFY(model.problem(2).isEmpty());
        QCOMPARE(model.index(5, LayerTableModel::OutputShape).data().toString(), QStringLiteral("10"));
        QVERIFY(!page.hasErrors());
        QCOMPARE(page.diagram()->blocks()[3].shape, QStringLiteral("8×3×3"));
    }

    void cnnPresetsNeedImages() {
        ProjectDocument doc;
        open(doc);
        NetworkPage page(&doc);
        page.applyPreset(3);
        QCOMPARE(layersOf(doc),
                 QStringLiteral("conv:32:3x3:relu,maxpool:2,conv:64:3x3:relu,maxpool:2,flatten,dense:128:relu"));
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Apply preset Small CNN (conv 32-64, images)"));
        page.applyPreset(4);
        QCOMPARE(layersOf(doc), QStringLiteral("conv:6:5x5:same:tanh,avgpool:2,conv:16:5x5:tanh,avgpool:2,flatten,"
                                               "dense:120:tanh,dense:84:tanh"));
        page.applyPreset(5);
        QCOMPARE(layersOf(doc),
                 QStringLiteral("conv:32:3x3:same:relu,conv:32:3x3:same:relu,maxpool:2,conv:64:3x3:same:relu,"
                                "conv:64:3x3:same:relu,maxpool:2,flatten,dense:128:relu"));
        QVERIFY(!page.hasErrors());  // 8x8 -> 4x4 -> 2x2 with same padding
        QCOMPARE(page.layerModel()->index(5, LayerTableModel::OutputShape).data().toString(), QStringLiteral("64×2×2"));

        // On flat data (iris: 4 values) the first conv cannot take its input, and its row says so.
        ProjectDocument flat;
        ProjectDataSource iris;
        iris.train.path = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/iris.csv").toStdString();
        flat.load(iris);
        NetworkPage irisPage(&flat);
        irisPage.applyPreset(3);
        const QString message = QStringLiteral(
            "conv 32 3x3 relu: kernel 3x3 is larger than its 1x4 input (use same padding or a smaller kernel)");
        QCOMPARE(irisPage.layerModel()->problem(0), message);
        QVERIFY(irisPage.hasErrors());
        QVERIFY(irisPage.problemsText().contains(QStringLiteral("Error: Layer 1: ") + message));
        // Same padding passes the shape check, and the check warns that the input is not an image.
        QVERIFY(irisPage.layerModel()->setData(irisPage.layerModel()->index(0, LayerTableModel::Padding),
                                               QStringLiteral("same")));
        QVERIFY(irisPage.layerModel()->problem(0).isEmpty());
        QVERIFY2(irisPage.problemsText().contains(
                     QStringLiteral("Warning: Layer 1: conv on a flat input of 4 values; it needs "
                                    "images (channels × height × width).")),
                 qPrintable(irisPage.problemsText()));
    }

    void diagramShowsKindsAndShapes() {
        NetworkSpec spec;
        spec.input = Shape{1, 28, 28};
        spec.layers = parseLayers("conv:32:3x3:relu,maxpool:2,conv:64:3x3:relu,maxpool:2,flatten,dense:128:relu");
        spec.setOutputFor(Task::Classification, 10);
        NetworkDiagram diagram;
        diagram.setNetwork(spec);
        QCOMPARE(diagram.blockTexts(),
                 (QStringList{QStringLiteral("input · 1×28×28"), QStringLiteral("conv 32 3x3 relu · 32×26×26"),
                              QStringLiteral("maxpool 2 · 32×13×13"), QStringLiteral("conv 64 3x3 relu · 64×11×11"),
                              QStringLiteral("maxpool 2 · 64×5×5"), QStringLiteral("flatten · 1600"),
                              QStringLiteral("dense 128 relu · 128"), QStringLiteral("output 10 softmax · 10")}));
        QCOMPARE(diagram.blocks()[1].kind, NetworkDiagram::BlockKind::Conv);
        QCOMPARE(diagram.blocks()[2].kind, NetworkDiagram::BlockKind::Pool);
        QCOMPARE(diagram.blocks()[7].kind, NetworkDiagram::BlockKind::Output);
        const int tall = diagram.sizeHint().height();
        diagram.resize(diagram.sizeHint());
        QVERIFY(!diagram.grab().isNull());  // paints

        // Following a document: every networkChanged redraws it, an undo too.
        ProjectDocument doc;
        open(doc);
        diagram.follow(&doc);
        QCOMPARE(diagram.blockTexts().size(), 6);
        QCOMPARE(diagram.blockTexts()[1], QStringLiteral("conv 8 3x3 relu · 8×6×6"));
        QVERIFY(diagram.sizeHint().height() < tall);  // fewer blocks
        NetworkSpec n = doc.network();
        n.layers = parseLayers("conv:4:5x5:same:relu,gap,bn,activation:tanh");
        doc.editNetwork(n);
        QCOMPARE(diagram.blockTexts(),
                 (QStringList{QStringLiteral("input · 1×8×8"), QStringLiteral("conv 4 5x5 same relu · 4×8×8"),
                              QStringLiteral("gap · 4×1×1"), QStringLiteral("bn · 4×1×1"),
                              QStringLiteral("activation tanh · 4×1×1"), QStringLiteral("output 10 softmax · 10")}));
        doc.undoStack()->undo();
        QCOMPARE(diagram.blockTexts()[1], QStringLiteral("conv 8 3x3 relu · 8×6×6"));
    }

    void splitPageDrawsEverySubmodel() {
        ProjectDocument doc;
        open(doc);
        SplitOptions o = doc.splitOptions();
        o.strategy = Strategy::ClassGroups;
        o.requested = 3;
        doc.setSplitOptions(o);
        SplitPage page(&doc);
        const SplitPlan plan = doc.plan();
        QCOMPARE(plan.submodelCount(), 3);
        const QList<NetworkDiagram*>& diagrams = page.diagrams();
        QCOMPARE(diagrams.size(), 4);
        QCOMPARE(diagrams[0]->title(), QStringLiteral("original"));
        QCOMPARE(diagrams[0]->blockTexts()[1], QStringLiteral("conv 8 3x3 relu · 8×6×6"));
        for (int s = 0; s < 3; ++s) {
            QCOMPARE(diagrams[s + 1]->title(), QStringLiteral("sub %1").arg(s + 1));
            NetworkDiagram expected;
            expected.setNetwork(plan.submodels[std::size_t(s)].spec);
            QCOMPARE(diagrams[s + 1]->blockTexts(), expected.blockTexts());
        }
        // F = 1.5: filters and units shrink to ceil(8 / 1.5) = 6 and ceil(16 / 1.5) = 11.
        QCOMPARE(diagrams[1]->blockTexts()[1], QStringLiteral("conv 6 3x3 relu · 6×6×6"));
        QCOMPARE(diagrams[1]->blockTexts()[4], QStringLiteral("dense 11 relu · 11"));

        // The diagrams follow the network and the options.
        NetworkSpec n = doc.network();
        std::get<ConvSpec>(n.layers[0]).filters = 12;
        doc.editNetwork(n);
        QCOMPARE(page.diagrams()[1]->blockTexts()[1], QStringLiteral("conv 8 3x3 relu · 8×6×6"));
        page.setSubmodels(1);
        QCOMPARE(page.diagrams().size(), doc.plan().submodelCount() + 1);
    }

    void layerFormEditsTheSelectedLayer() {
        ProjectDocument doc;
        open(doc, "conv:8:3x3:relu,maxpool:2,bn,flatten,dense:16:relu");
        NetworkPage page(&doc);
        page.resize(1024, 680);
        page.show();
        LayerEditor* editor = page.layerEditor();
        QCOMPARE(editor->row(), -1);
        QVERIFY(!editor->fieldEditor(LayerTableModel::Units));

        page.table()->selectRow(0);
        QCOMPARE(editor->row(), 0);
        QCOMPARE(editor->title(), QStringLiteral("Layer 1: conv"));
        auto* filters = qobject_cast<QSpinBox*>(editor->fieldEditor(LayerTableModel::Units));
        QVERIFY(filters);
        QCOMPARE(filters->value(), 8);
        QVERIFY(filters->isVisible());
        QVERIFY(qobject_cast<QComboBox*>(editor->fieldEditor(LayerTableModel::Padding)));
        QVERIFY(!editor->fieldEditor(LayerTableModel::Momentum));
        filters->setValue(12);
        QCOMPARE(std::get<ConvSpec>(doc.network().layers[0]).filters, 12);
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Set layer 1 filters to 12"));
        QVERIFY(editor->kernelWidthBox()->isVisible());
        editor->kernelWidthBox()->setValue(5);
        QCOMPARE(layersOf(doc).section(QLatin1Char(','), 0, 0), QStringLiteral("conv:12:3x5:relu"));
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Set layer 1 kernel to 3x5"));
        auto* padding = qobject_cast<QComboBox*>(editor->fieldEditor(LayerTableModel::Padding));
        padding->setCurrentText(QStringLiteral("same"));
        emit padding->activated(padding->currentIndex());
        QCOMPARE(std::get<ConvSpec>(doc.network().layers[0]).padding, Padding::Same);
        auto* bias = qobject_cast<QCheckBox*>(editor->fieldEditor(LayerTableModel::Bias));
        QVERIFY(bias && bias->isChecked());
        bias->setChecked(false);
        QVERIFY(!std::get<ConvSpec>(doc.network().layers[0]).bias);
        // An undo elsewhere shows in the form.
        doc.undoStack()->undo();
        QVERIFY(bias->isChecked());
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(editor->kernelWidthBox()->value(), 3);

        page.table()->selectRow(1);  // maxpool: one window size and a stride that may be its window
        QCOMPARE(editor->title(), QStringLiteral("Layer 2: maxpool"));
        QVERIFY(!editor->fieldEditor(LayerTableModel::Padding));
        QVERIFY(!editor->kernelWidthBox()->isVisible());
        auto* stride = qobject_cast<QSpinBox*>(editor->fieldEditor(LayerTableModel::Stride));
        QCOMPARE(stride->value(), 0);
        QCOMPARE(stride->text(), QStringLiteral("window"));
        QVERIFY(editor->fieldEditor(LayerTableModel::Kernel));
        editor->kernelHeightBox()->setValue(3);
        QCOMPARE(layersOf(doc).section(QLatin1Char(','), 1, 1), QStringLiteral("maxpool:3"));
        // A number typed beyond the box's limit becomes the limit, and the form says so.
        QVERIFY(editor->limitNoteText().isEmpty());
        QSpinBox* window = editor->kernelHeightBox();
        window->setFocus();
        window->selectAll();
        QTest::keyClicks(window, QStringLiteral("99"));
        QTest::keyClick(window, Qt::Key_Return);
        QCOMPARE(editor->limitNoteText(), QStringLiteral("Kernel 99 is outside 1 to 64, so it is 64."));
        page.table()->selectRow(0);
        QVERIFY(editor->limitNoteText().isEmpty());  // it was about the other layer
        page.table()->selectRow(1);
        editor->kernelHeightBox()->setValue(3);

        page.table()->selectRow(2);  // bn: a refused epsilon shows the kept one again
        auto* epsilon = qobject_cast<QLineEdit*>(editor->fieldEditor(LayerTableModel::Epsilon));
        QVERIFY(epsilon);
        QCOMPARE(epsilon->text(), QStringLiteral("1e-05"));
        epsilon->setText(QStringLiteral("0"));
        emit epsilon->editingFinished();
        QCOMPARE(epsilon->text(), QStringLiteral("1e-05"));
        QCOMPARE(std::get<BatchNormSpec>(doc.network().layers[2]).epsilon, 1e-5f);

        page.table()->selectRow(3);  // flatten has nothing to set
        QCOMPARE(editor->title(), QStringLiteral("Layer 4: flatten"));
        QVERIFY(!editor->fieldEditor(LayerTableModel::Units));

        // Add layer inserts the kind chosen beside it, after the selection.
        page.addKindBox()->setCurrentText(QStringLiteral("conv"));
        page.addLayer();
        QVERIFY(std::get<ConvSpec>(doc.network().layers[4]) == ConvSpec{});
        QCOMPARE(editor->row(), 4);
    }

    // A CNN with batch norm trains in the app with live charts and results, saves, reopens and
    // predicts bit for bit as before (batch norm's running values included); autosave keeps it.
    void cnnTrainsSavesReopensAndRecovers() {
        const QString project = dir_.filePath(QStringLiteral("cnn.skynnet"));
        const char* layers = "conv:6:3x3:linear,bn,activation:relu,maxpool:2,flatten,dense:12:relu";
        int recoveryOffered = 0;
        const auto window = [this, &recoveryOffered] {
            auto w = std::make_unique<MainWindow>(
                std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("settings.ini"))));
            ProjectController::Prompts& p = w->projectController()->prompts();
            p.unsavedChanges = [](const QString&) { return QMessageBox::Discard; };
            p.restoreRecovery = [&recoveryOffered](const QString&, const QString&) {
                ++recoveryOffered;
                return true;
            };
            p.showError = [](const QString&, const QString& message) { QFAIL(qPrintable(message)); };
            w->projectController()->autosave()->setDirectory(dir_.filePath(QStringLiteral("recovery")));
            w->resize(1280, 800);
            w->show();
            return w;
        };
        Matrix before;
        QStringList epochsBefore, diagramBefore;
        {
            auto w = window();
            ProjectDocument* doc = w->document();
            doc->load(images_);
            NetworkSpec net = doc->network();
            net.layers = parseLayers(layers);
            doc->editNetwork(net);
            w->splitPage()->setStrategy(Strategy::ClassGroups);
            w->splitPage()->setSubmodels(3);
            ProjectTraining t = doc->trainSettings();
            t.config.epochs = 3;
            t.config.batchSize = 32;
            t.config.optimizer.learningRate = 0.01f;
            t.config.resourceReportSeconds = 0.01;
            t.config.batchReportSeconds = 0.01;
            t.threadBudget = 2;
            t.trainBaseline = true;
            doc->setTrainSettings(t);
            QVERIFY2(!w->networkPage()->hasErrors(), qPrintable(w->networkPage()->problemsText()));

            QSignalSpy finished(w->session(), &TrainingSession::finished);
            w->trainPage()->startTraining();
            QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(120000));
            QVERIFY2(finished.at(0).at(0).value<TrainStatus>() == TrainStatus::Completed,
                     qPrintable(finished.at(0).at(1).toString()));
            // Live curves for the baseline and three submodels, the epoch table and the results.
            TrainingCharts* charts = w->trainPage()->charts();
            QVERIFY(charts->lossChart()->pointCount() >= 4 * 3);
            QCOMPARE(charts->metricChart()->seriesCount(), 4);
            QVERIFY(w->trainPage()->epochTable()->model()->rowCount() >= 4 * 3);
            QVERIFY(w->resultsPage()->hasResults());
            epochsBefore = cells(w->trainPage()->epochTable()->model());
            diagramBefore = w->networkPage()->diagram()->blockTexts();
            before = testPredictions(w.get());
            QVERIFY(before.rows() == 60 && before.cols() == 20);
            QVERIFY(w->projectController()->saveTo(project));
            QVERIFY(w->close());
        }
        {
            auto w = window();
            QSignalSpy opened(w->projectController(), &ProjectController::openFinished);
            QVERIFY(w->projectController()->openFile(project));
            QVERIFY(opened.count() == 1 || opened.wait(60000));
            QVERIFY(opened.at(0).at(0).toBool());
            QCOMPARE(layersOf(*w->document()), QString::fromLatin1(layers));
            QCOMPARE(w->networkPage()->diagram()->blockTexts(), diagramBefore);
            QCOMPARE(w->networkPage()->layerModel()->index(1, LayerTableModel::Type).data().toString(),
                     QStringLiteral("bn"));
            QCOMPARE(cells(w->trainPage()->epochTable()->model()), epochsBefore);
            QVERIFY(w->resultsPage()->hasResults());
            QVERIFY(sameBits(testPredictions(w.get()), before));

            // An edit of the CNN is autosaved, and the recovery file brings it back.
            w->document()->undoStack()->clear();
            QVERIFY(
                w->networkPage()->layerModel()->setData(w->networkPage()->layerModel()->index(0,
                                                                                              LayerTableModel::Units),
                                                        9));
            QVERIFY(w->document()->isModified());
            Autosave* autosave = w->projectController()->autosave();
            QSignalSpy saved(autosave, &Autosave::saved);
            autosave->setIntervalMilliseconds(100);
            QTRY_VERIFY_WITH_TIMEOUT(saved.count() > 0, hangGuardMs(10000));
            autosave->setIntervalMilliseconds(0);
            QVERIFY(QFile::exists(saved.at(0).at(0).toString()));
            // The process "dies" here: no close, so the recovery file stays for the next start.
        }
        auto w = window();
        QTRY_COMPARE(recoveryOffered, 1);  // offered once the event loop runs
        QVERIFY(w->projectController()->waitForOpen());
        QTRY_COMPARE(layersOf(*w->document()).section(QLatin1Char(','), 0, 0), QStringLiteral("conv:9:3x3:linear"));
        QVERIFY(w->document()->isModified());
        QVERIFY(w->close());
    }
};

QTEST_MAIN(TestDesigner)
#include "tst_designer.moc"
