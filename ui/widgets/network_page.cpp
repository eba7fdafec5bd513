#include "ui/widgets/network_page.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <iterator>

#include "ui/core/layer_table_model.h"
#include "ui/core/project_document.h"
#include "ui/widgets/format.h"
#include "ui/widgets/layer_delegate.h"
#include "ui/widgets/layer_editor.h"
#include "ui/widgets/network_check.h"
#include "ui/widgets/network_diagram.h"

namespace skynnet::ui {
namespace {

struct Preset {
    const char* name;
    const char* layers;
    const char* tip;              // the menu item's tooltip, or null
    bool imageRows = false;       // reads one-channel images as rows (H steps of W features)
    bool reconstruction = false;  // reloads the data to reconstruct its input (an autoencoder)
};
// The CNNs need image input (channels × height × width), the GRU images read as rows (steps ×
// features) and the text classifier token ids: on other data their rows show why not.
const Preset presets[] = {
    {QT_TRANSLATE_NOOP("NetworkPage", "Small MLP (64-32)"), "dense:64:relu,dense:32:relu", nullptr, false},
    {QT_TRANSLATE_NOOP("NetworkPage", "Medium MLP (256-128)"), "dense:256:relu,dense:128:relu", nullptr, false},
    {QT_TRANSLATE_NOOP("NetworkPage", "Large MLP (512-256-128)"), "dense:512:relu,dense:256:relu,dense:128:relu",
     nullptr, false},
    {QT_TRANSLATE_NOOP("NetworkPage", "Small CNN (conv 32-64, images)"),
     "conv:32:3x3:relu,maxpool:2,conv:64:3x3:relu,maxpool:2,flatten,dense:128:relu", nullptr, false},
    {QT_TRANSLATE_NOOP("NetworkPage", "LeNet-5 (images)"),
     "conv:6:5x5:same:tanh,avgpool:2,conv:16:5x5:tanh,avgpool:2,flatten,dense:120:tanh,dense:84:tanh", nullptr, false},
    {QT_TRANSLATE_NOOP("NetworkPage", "VGG-style blocks (images)"),
     "conv:32:3x3:same:relu,conv:32:3x3:same:relu,maxpool:2,conv:64:3x3:same:relu,conv:64:3x3:same:relu,maxpool:2,"
     "flatten,dense:128:relu",
     nullptr, false},
    // The reference's examples (issue 26): a GRU over the 28 rows of an MNIST image, and the
    // 784-32-784 autoencoder (its output follows the data: the input's size when reconstructing).
    {QT_TRANSLATE_NOOP("NetworkPage", "GRU over image rows (gru 64, bn)"), "gru:64,bn",
     QT_TRANSLATE_NOOP("NetworkPage", "A recurrent network over image rows: one-channel images are read as rows, each "
                                      "image H steps of W features (28 steps of 28 for MNIST)"),
     true},
    {QT_TRANSLATE_NOOP("NetworkPage", "Autoencoder (dense 32)"), "dense:32:relu",
     QT_TRANSLATE_NOOP("NetworkPage", "An autoencoder, 784-32-784 on MNIST: the data's task becomes reconstruction "
                                      "(the target is the input itself), with a code of 32 values and an output as "
                                      "wide as the input, sigmoid with binary cross-entropy for inputs scaled to "
                                      "[0, 1]"),
     false, true},
    {QT_TRANSLATE_NOOP("NetworkPage", "Text classifier (embedding 64, mean)"),
     "embedding:64,seqpool:mean,dense:64:relu",
     QT_TRANSLATE_NOOP("NetworkPage", "For text data (a text column, or a folder of .txt files per class): each token "
                                      "as 64 values, their mean over the text, then a dense layer"),
     false},
    // The reference's Vision Transformer, small (issue 27): 7x7 patches of a 28x28 image make 16 tokens.
    {QT_TRANSLATE_NOOP("NetworkPage", "Small Vision Transformer (patch 7, 4 blocks)"),
     "patch:7:64,encoder:4:128,encoder:4:128,encoder:4:128,encoder:4:128,layernorm,seqpool:mean",
     QT_TRANSLATE_NOOP("NetworkPage", "A Vision Transformer for 28x28 images: 7x7 patches as 16 tokens of 64 values "
                                      "with learned positions, 4 pre-norm encoder blocks (4 heads, MLP 128, GELU), "
                                      "a layer norm and the mean of the tokens"),
     false},
};

QLabel* bannerLabel(const char* style) {
    auto* l = new QLabel;
    l->setWordWrap(true);
    l->setStyleSheet(QString::fromLatin1(style));
    l->hide();
    return l;
}

}  // namespace

NetworkPage::NetworkPage(ProjectDocument* document, QWidget* parent) : QWidget(parent), document_(document) {
    model_ = new LayerTableModel(document_, this);
    buildTableAndEditor();
    QScrollArea* diagramScroll = buildDiagram();
    QHBoxLayout* bar = buildToolbar();
    buildBanners();

    auto* hint = new QLabel(tr("Hidden layers of the original model. The output layer follows the data. Widths marked "
                               "scalable (dense units, conv filters, recurrent units, embedding and patch dimensions, "
                               "encoder MLP widths) are "
                               "divided by the split's reduction factor F in "
                               "every submodel."));
    hint->setWordWrap(true);

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(table_, 1);
    leftLayout->addWidget(editor_);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(diagramScroll);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(hint);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    layout->addWidget(totals_);
    layout->addWidget(problems_);
    layout->addWidget(rejected_);

    connect(document_, &ProjectDocument::networkChanged, this, &NetworkPage::refresh);
    connect(document_, &ProjectDocument::dataChanged, this, &NetworkPage::refresh);
    connect(document_, &ProjectDocument::trainSettingsChanged, this, &NetworkPage::refresh);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &NetworkPage::refresh);
    connect(model_, &QAbstractItemModel::modelReset, this, &NetworkPage::refresh);
    refresh();
}

void NetworkPage::buildTableAndEditor() {
    table_ = new QTableView;
    table_->setModel(model_);
    auto* delegate = new LayerDelegate(table_);
    table_->setItemDelegate(delegate);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::SelectedClicked |
                            QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    // The table reads as an overview (type, settings, shape and figures); the selected layer's
    // fields are edited in the form below it, which keeps the table narrow enough for the diagram.
    for (int c = 0; c < LayerTableModel::ColumnCount; ++c)
        table_->setColumnHidden(c, LayerTableModel::isFieldColumn(c));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(LayerTableModel::Summary, QHeaderView::Stretch);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    connect(delegate, &QAbstractItemDelegate::closeEditor, document_, &ProjectDocument::sealEdits);

    editor_ = new LayerEditor(model_);
    connect(editor_, &LayerEditor::editFinished, document_, &ProjectDocument::sealEdits);
}

QScrollArea* NetworkPage::buildDiagram() {
    diagram_ = new NetworkDiagram;
    diagram_->follow(document_);
    auto* diagramScroll = new QScrollArea;
    diagramScroll->setWidget(diagram_);
    diagramScroll->setWidgetResizable(true);
    diagramScroll->setMinimumWidth(170);
    diagramScroll->setFrameShape(QFrame::NoFrame);
    diagramScroll->setToolTip(tr("The network from input to output: each block's layer and its output shape"));
    return diagramScroll;
}

QHBoxLayout* NetworkPage::buildToolbar() {
    presets_ = new QComboBox;
    presets_->addItem(tr("Presets…"));
    for (const Preset& p : presets) {
        presets_->addItem(tr(p.name));
        if (p.tip) presets_->setItemData(presets_->count() - 1, tr(p.tip), Qt::ToolTipRole);
    }
    presets_->setToolTip(
        tr("Replace the hidden layers by a ready network: multilayer perceptrons, CNNs for images, a GRU over "
           "image rows, an autoencoder, or a text classifier"));
    connect(presets_, &QComboBox::activated, this, [this](int i) {
        if (i > 0) applyPreset(i - 1);
        presets_->setCurrentIndex(0);
    });

    add_ = new QPushButton(style()->standardIcon(QStyle::SP_FileDialogNewFolder), tr("Add layer"));
    add_->setToolTip(tr("Insert a layer of the kind beside after the selected layer"));
    addKind_ = new QComboBox;
    for (const auto& kind : layerKindNames()) addKind_->addItem(QString::fromStdString(kind));
    addKind_->setToolTip(
        tr("Kind of the layer Add layer inserts: dense 64 relu, conv 32 3x3 relu, maxpool 2, gru 64, ..."));
    remove_ = new QPushButton(style()->standardIcon(QStyle::SP_TrashIcon), tr("Remove"));
    remove_->setToolTip(tr("Remove the selected layer"));
    up_ = new QPushButton(style()->standardIcon(QStyle::SP_ArrowUp), tr("Move up"));
    up_->setToolTip(tr("Move the selected layer one place towards the input"));
    down_ = new QPushButton(style()->standardIcon(QStyle::SP_ArrowDown), tr("Move down"));
    down_->setToolTip(tr("Move the selected layer one place towards the output"));
    connect(add_, &QPushButton::clicked, this, &NetworkPage::addLayer);
    connect(remove_, &QPushButton::clicked, this, &NetworkPage::removeLayer);
    connect(up_, &QPushButton::clicked, this, [this] { moveLayer(-1); });
    connect(down_, &QPushButton::clicked, this, [this] { moveLayer(+1); });
    auto* bar = new QHBoxLayout;
    for (QWidget* w : std::initializer_list<QWidget*>{add_, addKind_, remove_, up_, down_}) bar->addWidget(w);
    bar->addStretch();
    bar->addWidget(presets_);
    return bar;
}

void NetworkPage::buildBanners() {
    totals_ = new QLabel;
    totals_->setWordWrap(true);
    totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problems_ = bannerLabel(
        "QLabel { background: #fde2e1; color: #8a1c1c; border: 1px solid #e0a0a0; border-radius: 4px; padding: 6px; }");
    problems_->setObjectName(QStringLiteral("networkProblems"));
    rejected_ = bannerLabel(
        "QLabel { background: #fff4d6; color: #6b4e00; border: 1px solid #e6cf8a; border-radius: 4px; padding: 6px; }");
    connect(model_, &LayerTableModel::editRejected, this, [this](const QString& why) {
        rejected_->setText(tr("Edit refused: %1").arg(why));
        rejected_->show();
        QTimer::singleShot(6000, rejected_, &QWidget::hide);
    });
}

int NetworkPage::selectedLayer() const {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty() || model_->isOutputRow(rows.first().row())) return -1;
    return rows.first().row();
}

void NetworkPage::selectLayer(int row) {
    if (row >= 0 && row < model_->rowCount()) table_->selectRow(row);
}

void NetworkPage::addLayer() {
    const int at = selectedLayer() >= 0 ? selectedLayer() + 1 : model_->layerCount();
    const std::optional<LayerSpec> layer = LayerTableModel::usualLayerOfKind(addKind_->currentText());
    if (layer && model_->addLayer(at, *layer)) selectLayer(at);
}

void NetworkPage::removeLayer() {
    const int row = selectedLayer();
    if (row < 0) return;
    if (model_->removeLayer(row)) selectLayer(std::min(row, model_->layerCount() - 1));
}

void NetworkPage::moveLayer(int delta) {
    const int row = selectedLayer(), to = row + delta;
    if (row < 0 || to < 0 || to >= model_->layerCount()) return;
    if (model_->moveLayer(row, to)) selectLayer(to);
}

void NetworkPage::applyPreset(int preset) {
    if (preset < 0 || preset >= int(std::size(presets))) return;
    NetworkSpec spec = document_->network();
    spec.layers = parseLayers(presets[preset].layers);
    document_->editNetwork(spec, tr("Apply preset %1").arg(tr(presets[preset].name)));
    // One-channel images not yet read as rows: the same files, read as rows. Other data keeps its
    // reading, and the first layer's row says what it needs.
    const Shape input = document_->network().input;
    if (presets[preset].imageRows && document_->hasData() && !input.sequence && input.channels == 1 &&
        input.height > 1 && !document_->dataSettings().sequenceRows) {
        ProjectDataSource rows = document_->dataSettings();
        rows.sequenceRows = true;
        emit dataSettingsRequested(rows);
    }
    // The autoencoder reconstructs the data's input: the same files reloaded for that task. Text
    // has no values to reconstruct: it keeps its task.
    if (presets[preset].reconstruction && document_->hasData() && !document_->dataset()->isText() &&
        document_->dataset()->task != Task::Reconstruction) {
        ProjectDataSource inputs = reconstructionSettings(document_->dataSettings(), *document_->dataset());
        inputs.sequenceRows = false;  // its dense code reads flat images
        emit dataSettingsRequested(inputs);
    }
}

QString NetworkPage::problemsText() const { return problems_->isHidden() ? QString() : problems_->text(); }

void NetworkPage::refresh() {
    const int row = selectedLayer();
    editor_->setRow(row);
    remove_->setEnabled(row >= 0);
    up_->setEnabled(row > 0);
    down_->setEnabled(row >= 0 && row + 1 < model_->layerCount());

    const NetworkSpec& net = document_->network();
    QString totals;
    try {
        const ProjectTraining& t = document_->trainSettings();
        totals = tr("<b>%1</b> — input %2 · <b>%3 parameters</b> · %4 FLOPs per sample (forward) · about %5 to train "
                    "at batch %6")
                     .arg(QString::fromStdString(net.widthsSummary()), shapeText(net.input),
                          formatCount(paramCount(net)), formatFlops(flopsPerSample(net)),
                          formatBytes(
                              trainingMemoryBytes(net, t.config.batchSize,
                                                  slotsPerParam(t.config.optimizer.kind, t.config.optimizer.momentum))))
                     .arg(t.config.batchSize);
    } catch (const std::exception& e) {
        totals = QString::fromUtf8(e.what());
        // An impossible layer's message is the check's error below: not twice.
        for (int row = 0; row < model_->rowCount(); ++row)
            if (!model_->problem(row).isEmpty()) totals = tr("No totals until every layer can take its input.");
    }
    totals_->setText(totals);

    const NetworkCheck check = checkNetwork(*document_);

    hasErrors_ = !check.errors.isEmpty();
    QStringList lines;
    for (const QString& e : check.errors) lines << tr("Error: %1").arg(e);
    for (const QString& w : check.warnings) lines << tr("Warning: %1").arg(w);
    problems_->setText(lines.join(QLatin1Char('\n')));
    problems_->setVisible(!lines.isEmpty());
    // Only when it changes: setting a style sheet re-polishes the widget, milliseconds each time.
    const QString style =
        hasErrors_ ? QStringLiteral("QLabel { background: #fde2e1; color: #8a1c1c; border: 1px solid #e0a0a0;"
                                    " border-radius: 4px; padding: 6px; }")
                   : QStringLiteral("QLabel { background: #fff4d6; color: #6b4e00; border: 1px solid #e6cf8a;"
                                    " border-radius: 4px; padding: 6px; }");
    if (problems_->styleSheet() != style) problems_->setStyleSheet(style);
}

}  // namespace skynnet::ui
