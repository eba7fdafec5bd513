// The network designer for sequence models (issue 26), offscreen: GRU, LSTM, embedding and seqpool
// rows in the layer table and the per-layer form, their named undo steps, an impossible shape (a
// GRU on flat values) in its row, the diagram's blocks, and the presets of the reference's GRU,
// the autoencoder and a text classifier. The data is a CSV of 8 steps of 8 features per row (its
// sample shape declared as a sequence, like an 8x8 image read as rows), written by the test.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "matrix_support.h"
#include "split/combined_model_file.h"
#include "test_shots.h"
#include "test_support.h"
#include "ui/core/app_settings.h"
#include "ui/core/formatting.h"
#include "ui/core/layer_table_model.h"
#include "ui/core/network_figures.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/data_page.h"
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
#include "window_open.h"

using namespace skynnet;
using namespace skynnet::ui;

namespace {

constexpr int steps = 8, features = 8, classes = 4;
const char* const recurrent = "gru:16:sequences,lstm:8,dense:4:relu";

// The presets after the MLPs and CNNs, in the menu's order.
constexpr int gruPreset = 6, autoencoderPreset = 7, textPreset = 8, vitPreset = 9;

QString layersOf(const ProjectDocument& doc) { return QString::fromStdString(formatLayers(doc.network().layers)); }

// Rows of 64 values and a class: class c has its bright step at row c (an image read as rows).
void writeSequences(const QString& path) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Text));
    QTextStream out(&f);
    for (int i = 0; i < steps * features; ++i) out << "v" << i << ",";
    out << "label\n";
    quint32 state = 7;
    for (int n = 0; n < 400; ++n) {
        const int label = n % classes;
        for (int i = 0; i < steps * features; ++i) {
            state = state * 1664525u + 1013904223u;
            out << (i / features == label ? 200 + int(state >> 28) : int(state >> 27)) << ",";
        }
        out << label << "\n";
    }
}

}  // namespace

class TestSequenceDesigner : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    ProjectDataSource sequences_;  // each row declared as 8 steps of 8 features
    ProjectDataSource images_;     // the same rows as 8x8 one-channel images

    // A document with the sequence CSV and `layers`, its undo history empty.
    void open(ProjectDocument& doc, const char* layers = recurrent) {
        doc.load(sequences_);
        NetworkSpec n = doc.network();
        n.layers = parseLayers(layers);
        doc.setNetwork(n);
        doc.undoStack()->clear();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const QString csv = dir_.filePath(QStringLiteral("rows.csv"));
        writeSequences(csv);
        sequences_.train.path = csv.toStdString();
        sequences_.sampleShape = Shape::steps(steps, features);
        sequences_.scaling = Scaling::MinMax;
        images_ = sequences_;
        images_.sampleShape = Shape{1, steps, features};
    }

    void tableShowsSequenceShapesAndFigures() {
        ProjectDocument doc;
        open(doc);
        QCOMPARE(doc.network().input, Shape::steps(steps, features));
        LayerTableModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 4);
        const auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
            return model.index(row, column).data(role);
        };
        QCOMPARE(cell(0, LayerTableModel::Type).toString(), QStringLiteral("gru"));
        QCOMPARE(cell(0, LayerTableModel::Summary).toString(), QStringLiteral("16 units · returns every step"));
        QCOMPARE(cell(1, LayerTableModel::Summary).toString(), QStringLiteral("8 units · returns the last step"));
        QCOMPARE(cell(0, LayerTableModel::Steps).toString(), QStringLiteral("every step"));
        QCOMPARE(cell(1, LayerTableModel::Steps).toString(), QStringLiteral("last step"));
        QCOMPARE(model.headerData(LayerTableModel::Steps, Qt::Horizontal).toString(), QStringLiteral("Steps"));
        const QStringList shapes{QStringLiteral("8 steps × 16"), QStringLiteral("8"), QStringLiteral("4"),
                                 QStringLiteral("4")};
        for (int r = 0; r < 4; ++r) QCOMPARE(cell(r, LayerTableModel::OutputShape).toString(), shapes[r]);
        // GRU: 3 gate blocks of (features + units) weights and two biases; LSTM: 4 blocks.
        QCOMPARE(cell(0, LayerTableModel::Params).toLongLong(), 3LL * 16 * (8 + 16) + 2 * 3 * 16);
        QCOMPARE(cell(1, LayerTableModel::Params).toLongLong(), 4LL * 8 * (16 + 8) + 2 * 4 * 8);
        QCOMPARE(cell(0, LayerTableModel::Flops, SortRole).toLongLong(), 2LL * steps * 3 * 16 * (8 + 16));
        const TrainConfig& t = doc.trainSettings().config;
        const int optimizerSlots = slotsPerParam(t.optimizer.kind, t.optimizer.momentum);
        for (int r = 0; r < 2; ++r) {
            const NetworkSpec& net = doc.network();
            const Shape input = r == 0 ? net.input : figures(net.layers[0], net.input).output;
            QCOMPARE(cell(r, LayerTableModel::Memory).toString(),
                     model.memoryUnit().format(
                         layerTrainingBytes(figures(net.layers[std::size_t(r)], input), t.batchSize, optimizerSlots)));
        }
        // The fields of each kind: units, steps and scalable for the recurrent layers.
        const auto editable = [&](int row, int column) {
            return bool(model.flags(model.index(row, column)) & (Qt::ItemIsEditable | Qt::ItemIsUserCheckable));
        };
        for (int r : {0, 1})
            for (int c : {LayerTableModel::Units, LayerTableModel::Steps, LayerTableModel::Scalable})
                QVERIFY(editable(r, c));
        for (int c : {LayerTableModel::Kernel, LayerTableModel::Activation, LayerTableModel::Bias})
            QVERIFY(!editable(0, c));
        QVERIFY(!editable(2, LayerTableModel::Steps));
        QCOMPARE(model.stepsChoices(0), (QStringList{QStringLiteral("last step"), QStringLiteral("every step")}));
        QVERIFY(model.stepsChoices(2).isEmpty());
        QVERIFY(model.stepsChoices(3).isEmpty());  // the output row
        QCOMPARE(cell(0, LayerTableModel::Scalable, Qt::CheckStateRole).toInt(), int(Qt::Checked));
    }

    void textLayersShowTheirVocabulary() {
        // No data: the designer shows the network it is given, here token ids of 20 steps.
        ProjectDocument doc;
        NetworkSpec n;
        n.input = Shape::steps(20, 1);
        n.layers = parseLayers("embedding:32,seqpool:mean,dense:8:relu");
        n.bindVocabulary(1000);
        n.setOutputFor(Task::Binary, 1);
        doc.setNetwork(n);
        LayerTableModel model(&doc);
        const auto cell = [&](int row, int column) { return model.index(row, column).data(); };
        QCOMPARE(cell(0, LayerTableModel::Summary).toString(), QStringLiteral("32 dimensions · vocabulary 1000"));
        QCOMPARE(cell(0, LayerTableModel::OutputShape).toString(), QStringLiteral("20 steps × 32"));
        QCOMPARE(cell(0, LayerTableModel::Params).toLongLong(), 1000LL * 32);
        QCOMPARE(cell(1, LayerTableModel::Summary).toString(), QStringLiteral("mean of the real steps"));
        QCOMPARE(cell(1, LayerTableModel::Steps).toString(), QStringLiteral("mean"));
        QCOMPARE(cell(1, LayerTableModel::OutputShape).toString(), QStringLiteral("32"));
        QCOMPARE(model.stepsChoices(1),
                 (QStringList{QStringLiteral("mean"), QStringLiteral("last step"), QStringLiteral("first step")}));
        // The vocabulary is the data's: no column edits it, and an edit of the width keeps it.
        QVERIFY(!(model.flags(model.index(0, LayerTableModel::Steps)) & Qt::ItemIsEditable));
        QVERIFY(model.setData(model.index(0, LayerTableModel::Units), 48));
        QCOMPARE(std::get<EmbeddingSpec>(doc.network().layers[0]).vocabulary, 1000);
        QCOMPARE(cell(0, LayerTableModel::Summary).toString(), QStringLiteral("48 dimensions · vocabulary 1000"));
        QCOMPARE(model.index(0, LayerTableModel::Units).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("48 dimensions in the original model, ceil(48 / F) in each submodel"));

        // Before text data binds it, the summary says where it comes from and the row why it waits.
        n.bindVocabulary(0);
        doc.setNetwork(n);
        QCOMPARE(cell(0, LayerTableModel::Summary).toString(),
                 QStringLiteral("32 dimensions · vocabulary from the text data"));
        QCOMPARE(model.problem(0),
                 QStringLiteral("embedding 32: no vocabulary yet (it comes from the text data's tokenizer)"));
        QCOMPARE(cell(0, LayerTableModel::OutputShape).toString(), QStringLiteral("impossible"));
    }

    void sequenceFieldEditsAreNamedUndoSteps() {
        ProjectDocument doc;
        open(doc, "gru:16:sequences,lstm:8:sequences,seqpool:mean,dense:4:relu");
        LayerTableModel model(&doc);
        QUndoStack* stack = doc.undoStack();
        const auto set = [&](int row, int column, const QVariant& v, int role = Qt::EditRole) {
            return model.setData(model.index(row, column), v, role);
        };
        const auto shape = [&](int row) { return model.index(row, LayerTableModel::OutputShape).data().toString(); };
        const QString before = layersOf(doc);

        QVERIFY(set(0, LayerTableModel::Units, 24));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 units to 24"));
        QVERIFY(set(0, LayerTableModel::Units, 32));  // the same spin box: one step
        QCOMPARE(stack->count(), 1);
        doc.sealEdits();
        QCOMPARE(shape(0), QStringLiteral("8 steps × 32"));
        QVERIFY(set(0, LayerTableModel::Scalable, Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 scalable off"));
        QCOMPARE(model.index(0, LayerTableModel::Summary).data().toString(),
                 QStringLiteral("32 units · returns every step · fixed"));
        QVERIFY(set(1, LayerTableModel::Steps, QStringLiteral("last step")));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 2 to return the last step"));
        QCOMPARE(shape(1), QStringLiteral("8"));
        // seqpool now gets a vector: its row says why it cannot, in the engine's words.
        QCOMPARE(model.problem(2), QStringLiteral("seqpool mean needs a sequence input (steps x features), not (8): "
                                                  "read images as rows (--as-sequence rows), or start with an "
                                                  "embedding of text"));
        QVERIFY(set(1, LayerTableModel::Steps, QStringLiteral("every step")));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 2 to return every step"));
        QVERIFY(model.problem(2).isEmpty());
        QVERIFY(set(2, LayerTableModel::Steps, QStringLiteral("last step")));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 3 pooling to last"));
        QCOMPARE(model.index(2, LayerTableModel::Summary).data().toString(), QStringLiteral("the last step"));
        QCOMPARE(shape(2), QStringLiteral("8"));
        QVERIFY(set(1, LayerTableModel::Type, QStringLiteral("gru")));  // another kind: its usual settings
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 2 type"));
        QVERIFY(std::get<GruSpec>(doc.network().layers[1]) == GruSpec{});
        QCOMPARE(model.problem(2).left(40), QStringLiteral("seqpool last needs a sequence input (ste"));
        const NetworkSpec after = doc.network();
        QCOMPARE(layersOf(doc), QStringLiteral("gru:32:sequences,gru:64,seqpool:last,dense:4:relu"));
        QVERIFY(!std::get<GruSpec>(after.layers[0]).scalable);  // the --layers text has no flag for it

        // Refused values leave the network as it was, with the reason.
        QSignalSpy rejected(&model, &LayerTableModel::editRejected);
        QVERIFY(!set(0, LayerTableModel::Steps, QStringLiteral("sideways")));
        QVERIFY(!set(2, LayerTableModel::Steps, QStringLiteral("every step")));
        QVERIFY(!set(0, LayerTableModel::Units, 0));
        QVERIFY(!set(3, LayerTableModel::Steps, QStringLiteral("last step")));  // dense has no steps: not editable
        QCOMPARE(rejected.count(), 3);
        QCOMPARE(rejected.at(0).at(0).toString(),
                 QStringLiteral("layer 1: a recurrent layer returns the last step or every step, not 'sideways'"));
        QCOMPARE(rejected.at(1).at(0).toString(), QStringLiteral("layer 3: seqpool takes the mean, the last or the "
                                                                 "first step of a sequence, not 'every step'"));
        QCOMPARE(rejected.at(2).at(0).toString(),
                 QStringLiteral("layer 1: units must be a whole number of at least 1"));
        QVERIFY(doc.network() == after);

        // Every step undoes to the network before, and redoes to the one after.
        while (stack->canUndo()) stack->undo();
        QCOMPARE(layersOf(doc), before);
        QCOMPARE(shape(0), QStringLiteral("8 steps × 16"));
        QCOMPARE(model.index(2, LayerTableModel::Steps).data().toString(), QStringLiteral("mean"));
        QVERIFY(std::get<GruSpec>(doc.network().layers[0]).scalable);
        while (stack->canRedo()) stack->redo();
        QVERIFY(doc.network() == after);
        QCOMPARE(model.index(0, LayerTableModel::Summary).data().toString(),
                 QStringLiteral("32 units · returns every step · fixed"));

        // An embedding: its dimension and scalable flag, undone too.
        NetworkSpec n = doc.network();
        n.layers = parseLayers("embedding:16,seqpool:mean");
        doc.setNetwork(n);
        stack->clear();
        QVERIFY(set(0, LayerTableModel::Units, 40));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 dimension to 40"));
        QVERIFY(set(0, LayerTableModel::Scalable, Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(stack->undoText(), QStringLiteral("Set layer 1 scalable off"));
        QVERIFY(!set(0, LayerTableModel::Units, -3));
        QCOMPARE(rejected.last().at(0).toString(),
                 QStringLiteral("layer 1: dimensions must be a whole number of at least 1"));
        QCOMPARE(std::get<EmbeddingSpec>(doc.network().layers[0]), (EmbeddingSpec{40, 0, false}));
        stack->undo();
        QVERIFY(std::get<EmbeddingSpec>(doc.network().layers[0]).scalable);
        stack->undo();
        QCOMPARE(std::get<EmbeddingSpec>(doc.network().layers[0]), (EmbeddingSpec{16, 0, true}));
        stack->redo();
        stack->redo();
        QCOMPARE(std::get<EmbeddingSpec>(doc.network().layers[0]), (EmbeddingSpec{40, 0, false}));
    }

    void gruOnFlatValuesIsShownInItsRow() {
        ProjectDocument doc;
        ProjectDataSource iris;
        iris.train.path = QStringLiteral(SKYNNET_SOURCE_DIR "/resources/datasets/iris.csv").toStdString();
        doc.load(iris);
        NetworkPage page(&doc);
        page.applyPreset(gruPreset);
        QCOMPARE(layersOf(doc), QStringLiteral("gru:64,bn"));
        LayerTableModel* model = page.layerModel();
        const QString message = QStringLiteral(
            "gru 64 needs a sequence input (steps x features), not (4): read images as rows "
            "(--as-sequence rows), or start with an embedding of text");
        QCOMPARE(model->problem(0), message);
        QCOMPARE(model->index(0, LayerTableModel::Type).data(Qt::ToolTipRole).toString(), message);
        QCOMPARE(model->index(0, LayerTableModel::Type).data(Qt::BackgroundRole).value<QColor>(),
                 QColor(0xfd, 0xe2, 0xe1));
        QCOMPARE(model->index(0, LayerTableModel::OutputShape).data().toString(), QStringLiteral("impossible"));
        QVERIFY(!model->index(0, LayerTableModel::Params).data().isValid());
        QCOMPARE(model->index(1, LayerTableModel::OutputShape).data().toString(), QStringLiteral("?"));
        QVERIFY(page.hasErrors());
        QVERIFY2(page.problemsText().contains(QStringLiteral("Error: Layer 1: ") + message),
                 qPrintable(page.problemsText()));
        QCOMPARE(page.diagram()->blocks()[1].problem, message);
        QCOMPARE(page.diagram()->blocks()[1].shape, QStringLiteral("impossible"));
        page.resize(1024, 680);
        page.show();
        shoot(&page, QStringLiteral("sequence-designer-gru-on-flat"));
    }

    void diagramDrawsSequenceKinds() {
        ProjectDocument doc;
        open(doc);
        NetworkDiagram diagram;
        diagram.follow(&doc);
        QCOMPARE(diagram.blockTexts(),
                 (QStringList{QStringLiteral("input · 8 steps × 8"), QStringLiteral("gru 16 sequences · 8 steps × 16"),
                              QStringLiteral("lstm 8 · 8"), QStringLiteral("dense 4 relu · 4"),
                              QStringLiteral("output 4 softmax · 4")}));
        QCOMPARE(diagram.blocks()[1].kind, NetworkDiagram::BlockKind::Recurrent);
        QCOMPARE(diagram.blocks()[2].kind, NetworkDiagram::BlockKind::Recurrent);
        diagram.resize(diagram.sizeHint());
        QVERIFY(diagram.blockFill(1) != diagram.blockFill(3));  // recurrent and dense apart
        NetworkSpec n = doc.network();
        n.layers = parseLayers("embedding:16,seqpool:last");
        doc.editNetwork(n);
        QCOMPARE(diagram.blocks()[1].kind, NetworkDiagram::BlockKind::Embedding);
        QCOMPARE(diagram.blocks()[2].kind, NetworkDiagram::BlockKind::Pool);
        QCOMPARE(diagram.blockTexts()[2], QStringLiteral("seqpool last · ?"));
        QVERIFY(!diagram.grab().isNull());
    }

    void layerFormEditsSequenceLayers() {
        ProjectDocument doc;
        open(doc, "gru:16:sequences,seqpool:mean,dense:4:relu");
        NetworkPage page(&doc);
        page.resize(1024, 680);
        page.show();
        LayerEditor* editor = page.layerEditor();
        page.table()->selectRow(0);
        QCOMPARE(editor->title(), QStringLiteral("Layer 1: gru"));
        auto* units = qobject_cast<QSpinBox*>(editor->fieldEditor(LayerTableModel::Units));
        QVERIFY(units && units->isVisible());
        QCOMPARE(units->value(), 16);
        auto* stepsBox = qobject_cast<QComboBox*>(editor->fieldEditor(LayerTableModel::Steps));
        QVERIFY(stepsBox && stepsBox->isVisible());
        QCOMPARE(stepsBox->count(), 2);
        QCOMPARE(stepsBox->currentText(), QStringLiteral("every step"));
        QVERIFY(editor->fieldEditor(LayerTableModel::Scalable));
        QVERIFY(!editor->fieldEditor(LayerTableModel::Activation));
        shoot(&page, QStringLiteral("sequence-designer-gru-form"));
        units->setValue(32);
        QCOMPARE(std::get<GruSpec>(doc.network().layers[0]).units, 32);
        stepsBox->setCurrentText(QStringLiteral("last step"));
        emit stepsBox->activated(stepsBox->currentIndex());
        QVERIFY(!std::get<GruSpec>(doc.network().layers[0]).sequences);
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Set layer 1 to return the last step"));
        doc.undoStack()->undo();  // an undo elsewhere shows in the form
        QCOMPARE(stepsBox->currentText(), QStringLiteral("every step"));

        page.table()->selectRow(1);  // seqpool: its mode in the same box, with its own choices
        QCOMPARE(editor->title(), QStringLiteral("Layer 2: seqpool"));
        stepsBox = qobject_cast<QComboBox*>(editor->fieldEditor(LayerTableModel::Steps));
        QVERIFY(stepsBox);
        QCOMPARE(stepsBox->itemText(0), QStringLiteral("mean"));
        QCOMPARE(stepsBox->currentText(), QStringLiteral("mean"));
        QVERIFY(!editor->fieldEditor(LayerTableModel::Units));
        stepsBox->setCurrentText(QStringLiteral("last step"));
        emit stepsBox->activated(stepsBox->currentIndex());
        QCOMPARE(std::get<SeqPoolSpec>(doc.network().layers[1]).mode, SequencePoolMode::Last);

        // An embedding's width is its dimensions.
        page.addKindBox()->setCurrentText(QStringLiteral("embedding"));
        page.table()->selectRow(0);
        page.addLayer();
        QCOMPARE(editor->title(), QStringLiteral("Layer 2: embedding"));
        QVERIFY(std::get<EmbeddingSpec>(doc.network().layers[1]) == EmbeddingSpec{});
        QVERIFY(editor->fieldEditor(LayerTableModel::Units));
        QVERIFY(!editor->fieldEditor(LayerTableModel::Steps));
    }

    void presetsLoadTheExpectedLayers() {
        ProjectDocument doc;
        open(doc);
        NetworkPage page(&doc);
        page.applyPreset(gruPreset);
        QCOMPARE(layersOf(doc), QStringLiteral("gru:64,bn"));
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Apply preset GRU over image rows (gru 64, bn)"));
        QVERIFY2(!page.hasErrors(), qPrintable(page.problemsText()));  // rows of 8 features: 8 steps
        QCOMPARE(page.layerModel()->index(0, LayerTableModel::OutputShape).data().toString(), QStringLiteral("64"));
        QCOMPARE(page.layerModel()->index(0, LayerTableModel::Params).data().toLongLong(),
                 3LL * 64 * (8 + 64) + 2 * 3 * 64);
        page.resize(1024, 680);
        page.show();
        page.table()->selectRow(0);
        shoot(&page, QStringLiteral("sequence-designer-gru-preset"));

        page.applyPreset(autoencoderPreset);
        QCOMPARE(layersOf(doc), QStringLiteral("dense:32:relu"));
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Apply preset Autoencoder (dense 32)"));

        page.applyPreset(textPreset);
        QCOMPARE(layersOf(doc), QStringLiteral("embedding:64,seqpool:mean,dense:64:relu"));
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Apply preset Text classifier (embedding 64, mean)"));
        // Rows of 8 values per step are not token ids: the embedding's row says what it needs.
        QVERIFY(page.layerModel()->problem(0).startsWith(QStringLiteral("embedding 64 needs token ids")));
        shoot(&page, QStringLiteral("sequence-designer-text-preset-on-rows"));

        // Each preset is one undo step.
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(layersOf(doc), QStringLiteral("gru:64,bn"));
        doc.undoStack()->undo();
        QCOMPARE(layersOf(doc), QString::fromLatin1(recurrent));
    }

    void vitPresetShowsItsBlocksAndWhatTheImagesLack() {
        ProjectDocument doc;
        doc.load(images_);  // 8x8 one-channel images
        NetworkPage page(&doc);
        page.applyPreset(vitPreset);
        QCOMPARE(layersOf(doc), QStringLiteral("patch:7:64,encoder:4:128,encoder:4:128,encoder:4:128,encoder:4:128,"
                                               "layernorm,seqpool:mean"));
        // 7x7 patches do not tile an 8x8 image: the patch row says so, naming both.
        QCOMPARE(page.layerModel()->problem(0),
                 QStringLiteral("patch 7x7 64: 8x8 images do not divide into 7x7 patches"));
        // 4x4 patches do: 4 tokens of 64, and each block's parameters as PyTorch counts them.
        NetworkSpec n = doc.network();
        std::get<PatchSpec>(n.layers[0]).patch = 4;
        doc.editNetwork(n);
        QVERIFY2(!page.hasErrors(), qPrintable(page.problemsText()));
        const auto cell = [&](int row, int column) { return page.layerModel()->index(row, column).data(); };
        QCOMPARE(cell(0, LayerTableModel::OutputShape).toString(), QStringLiteral("4 steps × 64"));
        QCOMPARE(cell(1, LayerTableModel::Params).toLongLong(), 33472LL);
        QCOMPARE(cell(1, LayerTableModel::Summary).toString(), QStringLiteral("4 heads · MLP 128 gelu"));
        QCOMPARE(cell(5, LayerTableModel::Summary).toString(), QStringLiteral("each token's features"));
        QCOMPARE(cell(6, LayerTableModel::Summary).toString(), QStringLiteral("mean of the real steps"));
        page.resize(1024, 680);
        page.show();
        shoot(&page, QStringLiteral("sequence-designer-vit-preset"));
    }

    // The GRU preset on images reads them as rows, as the reference's example does; it trains in
    // the app, split into three class groups, with live charts and results.
    void gruPresetReadsImagesAsRowsAndTrains() {
        MainWindow w(std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("settings.ini"))));
        failOnErrorDialogs(w);
        w.resize(1024, 680);
        w.show();
        ProjectDocument* doc = w.document();
        doc->load(images_);
        doc->undoStack()->clear();
        QCOMPARE(doc->network().input, (Shape{1, steps, features}));
        QSignalSpy reloaded(w.dataPage(), &DataPage::loadFinished);
        w.networkPage()->applyPreset(gruPreset);
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 1, hangGuardMs(30000));
        QVERIFY(reloaded.at(0).at(0).toBool());
        QVERIFY(doc->dataSettings().sequenceRows);
        QCOMPARE(doc->network().input, Shape::steps(steps, features));
        QCOMPARE(layersOf(*doc), QStringLiteral("gru:64,bn"));
        QCOMPARE(doc->undoStack()->count(), 2);  // the preset, then the data read as rows
        // The undo of the data brings the images back, and the GRU row says what it needs.
        doc->undoStack()->undo();
        QVERIFY(!doc->dataSettings().sequenceRows);
        QVERIFY(w.networkPage()->hasErrors());  // a GRU on images: its row says to read them as rows
        doc->undoStack()->redo();
        QVERIFY2(!w.networkPage()->hasErrors(), qPrintable(w.networkPage()->problemsText()));
        w.splitPage()->setStrategy(Strategy::ClassGroups);
        w.splitPage()->setSubmodels(3);
        ProjectTraining t = doc->trainSettings();
        t.config.epochs = 3;
        t.config.batchSize = 16;
        t.config.resourceReportSeconds = 0.01;
        t.config.batchReportSeconds = 0.01;
        t.threadBudget = 2;
        t.trainBaseline = true;
        doc->setTrainSettings(t);
        QVERIFY2(!w.networkPage()->hasErrors(), qPrintable(w.networkPage()->problemsText()));
        w.showPage(MainWindow::NetworkPageIndex);
        w.networkPage()->table()->selectRow(0);
        shoot(&w, QStringLiteral("sequence-designer-window-network"));

        QSignalSpy finished(w.session(), &TrainingSession::finished);
        w.trainPage()->startTraining();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, hangGuardMs(120000));
        QVERIFY2(finished.at(0).at(0).value<TrainStatus>() == TrainStatus::Completed,
                 qPrintable(finished.at(0).at(1).toString()));
        TrainingCharts* charts = w.trainPage()->charts();
        // The baseline and every submodel of the plan, three epochs each.
        const int models = doc->plan().submodelCount() + 1;
        QVERIFY(models >= 3);
        QCOMPARE(w.trainPage()->epochTable()->model()->rowCount(), 3 * models);
        QVERIFY(charts->lossChart()->pointCount() >= 3 * models);
        QCOMPARE(charts->metricChart()->seriesCount(), models);
        QVERIFY(w.resultsPage()->hasResults());
        w.showPage(MainWindow::TrainPageIndex);
        shoot(&w, QStringLiteral("sequence-designer-window-trained"));
        w.showPage(MainWindow::ResultsPageIndex);
        shoot(&w, QStringLiteral("sequence-designer-window-results"));

        // Saved and reopened in another window: read as rows again, the same model, and the
        // same predictions bit for bit on the prepared test rows.
        const auto before = w.session()->results();
        QVERIFY(before && before->model);
        const Matrix testRows = doc->prepared()->test.features;
        CombinedModel built = buildCombinedModel(*before->model);
        const Matrix predicted = built.predict(testRows);
        const QString project = dir_.filePath(QStringLiteral("gru.skynnet"));
        QVERIFY(w.projectController()->saveTo(project));
        MainWindow other(std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("other.ini"))));
        other.show();
        QVERIFY(openAndWait(&other, project));
        QVERIFY(other.document()->dataSettings().sequenceRows);
        QCOMPARE(other.document()->network(), doc->network());
        const ProjectRun* reopened = other.document()->shownRunRecord();
        QVERIFY(reopened && reopened->results && reopened->results->model);
        QVERIFY(reopened->results->model->weights == before->model->weights);
        CombinedModel rebuilt = buildCombinedModel(*reopened->results->model);
        QVERIFY(sameBits(rebuilt.predict(other.document()->prepared()->test.features), predicted));
        doc->undoStack()->clear();
        doc->setClean();
    }
};

QTEST_MAIN(TestSequenceDesigner)
#include "tst_sequence_designer.moc"
