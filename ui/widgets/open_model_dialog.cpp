#include "ui/widgets/open_model_dialog.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "core/error.h"
#include "data/data_source.h"
#include "io/atomic_file.h"
#include "split/combined_model.h"
#include "split/combined_model_file.h"
#include "split/model_predictions.h"
#include "train/metrics.h"
#include "ui/core/app_settings.h"
#include "ui/widgets/format.h"

namespace skynnet::ui {

struct OpenModelDialog::Loaded {
    SavedCombinedModel saved;
    CombinedModel model;
};

namespace {

struct WaitCursor {
    WaitCursor() { QApplication::setOverrideCursor(Qt::WaitCursor); }
    ~WaitCursor() { QApplication::restoreOverrideCursor(); }
};

std::int64_t totalParams(const SavedCombinedModel& m) {
    std::int64_t n = 0;
    for (const auto& w : m.weights) n += std::int64_t(w.size());
    return n;
}

QString taskText(const SavedCombinedModel& m) {
    const auto names = [](const std::vector<std::string>& list) {
        QStringList out;
        for (const std::string& s : list) out << QString::fromStdString(s);
        return out.join(QStringLiteral(", "));
    };
    switch (m.task()) {
    case Task::Classification:
        return OpenModelDialog::tr("%1 classes (%2)").arg(m.schema.classNames.size()).arg(names(m.schema.classNames));
    case Task::Binary: return OpenModelDialog::tr("two classes (%1)").arg(names(m.schema.classNames));
    case Task::Regression:
        return OpenModelDialog::tr("%1 numeric target(s) (%2)").arg(m.rule.outputs).arg(names(m.schema.targetNames));
    }
    return {};
}

}  // namespace

OpenModelDialog::OpenModelDialog(AppSettings* settings, QWidget* parent) : QDialog(parent), settings_(settings) {
    setWindowTitle(tr("Open Model"));
    summary_ = new QLabel(tr("No model opened."));
    summary_->setObjectName(QStringLiteral("modelSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    data_ = new QLineEdit;
    data_->setPlaceholderText(tr("A CSV/TSV file, IDX images, an image folder or builtin:NAME"));
    data_->setToolTip(tr("Data laid out like the model's training data. Measuring needs its labels or target column; "
                         "predicting does not."));
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, &OpenModelDialog::browseData);
    auto* dataRow = new QHBoxLayout;
    dataRow->addWidget(data_, 1);
    dataRow->addWidget(browse);

    evaluate_ = new QPushButton(tr("Measure"));
    evaluate_->setToolTip(tr("Run the model on the data and compare its answers with the data's own labels or targets"));
    connect(evaluate_, &QPushButton::clicked, this, &OpenModelDialog::evaluate);
    predict_ = new QPushButton(tr("Predict and Save CSV…"));
    predict_->setToolTip(tr("Run the model on the data and save one row per sample: the predicted class and each "
                            "class's probability, or the predicted values"));
    connect(predict_, &QPushButton::clicked, this, &OpenModelDialog::choosePredictionsFile);
    auto* actions = new QHBoxLayout;
    actions->addWidget(evaluate_);
    actions->addWidget(predict_);
    actions->addStretch();

    metric_ = new QLabel;
    metric_->setObjectName(QStringLiteral("modelMetric"));
    metric_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = metric_->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    metric_->setFont(big);

    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("openModelStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->hide();

    auto* form = new QFormLayout;
    form->addRow(tr("Data:"), dataRow);
    form->addRow(QString(), actions);
    form->addRow(tr("Result:"), metric_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addLayout(form);
    layout->addWidget(status_);
    layout->addStretch();
    layout->addWidget(buttons);
    connect(data_, &QLineEdit::textChanged, this, &OpenModelDialog::updateButtons);
    updateButtons();
    resize(640, sizeHint().height());
}

OpenModelDialog::~OpenModelDialog() = default;

bool OpenModelDialog::loadModel(const QString& path) {
    try {
        WaitCursor wait;
        auto loaded = std::make_unique<Loaded>();
        loaded->saved = loadAnyModel(path.toStdString());
        loaded->model = buildCombinedModel(loaded->saved);
        model_ = std::move(loaded);
    } catch (const std::exception& e) {
        showStatus(tr("Cannot open the model: %1").arg(QString::fromUtf8(e.what())), true);
        return false;
    }
    modelPath_ = QFileInfo(path).absoluteFilePath();
    setWindowTitle(tr("%1 — Open Model").arg(QFileInfo(path).fileName()));
    summary_->setText(modelSummary());
    metric_->clear();
    status_->hide();
    updateButtons();
    return true;
}

QString OpenModelDialog::modelSummary() const {
    if (!model_) return {};
    const SavedCombinedModel& m = model_->saved;
    const QString kind = m.fromSingleFile ? tr("One network")
                                          : tr("%1 submodel(s) combined by %2")
                                                .arg(m.submodelCount())
                                                .arg(QString::fromStdString(strategyName(m.rule.strategy)));
    return tr("<b>%1</b><br>%2 · %3 parameters · %4 input columns → %5")
        .arg(QFileInfo(modelPath_).fileName().toHtmlEscaped(), kind, formatCount(totalParams(m)))
        .arg(m.rawColumns())
        .arg(taskText(m).toHtmlEscaped());
}

void OpenModelDialog::setDataPath(const QString& path) { data_->setText(path); }

QString OpenModelDialog::dataPath() const { return data_->text().trimmed(); }

QString OpenModelDialog::metricText() const { return metric_->text(); }

QString OpenModelDialog::statusText() const { return status_->isHidden() ? QString() : status_->text(); }

void OpenModelDialog::updateButtons() {
    const bool ready = model_ && !dataPath().isEmpty();
    evaluate_->setEnabled(ready);
    predict_->setEnabled(ready);
}

void OpenModelDialog::showStatus(const QString& text, bool error) {
    status_->setText(text);
    status_->setStyleSheet(error ? QStringLiteral("QLabel { background: #fde2e1; color: #8a1c1c; border: 1px solid #e0a0a0;"
                                                  " border-radius: 4px; padding: 6px; }")
                                 : QStringLiteral("QLabel { background: #e3f4e1; color: #1d5c1a; border: 1px solid #a8d5a2;"
                                                  " border-radius: 4px; padding: 6px; }"));
    status_->show();
}

namespace {

// The dialog's data as the engine's request: a path as the user typed it (builtin: kept), the
// labels beside IDX images and the model's own target column.
DataRequest requestFor(const QString& path) {
    DataRequest r;
    r.option = "data";
    r.path = path.startsWith(QLatin1String("builtin:")) ? path.toStdString() : QFileInfo(path).absoluteFilePath().toStdString();
    return r;
}

}  // namespace

bool OpenModelDialog::evaluate() {
    if (!model_ || dataPath().isEmpty()) {
        showStatus(model_ ? tr("Choose the data to measure the model on.") : tr("Open a model first."), true);
        return false;
    }
    metric_->clear();
    try {
        WaitCursor wait;
        const Dataset data = loadLike(requestFor(dataPath()), model_->saved.schema, true);
        if (data.size() == 0) throw Error(dataPath().toStdString() + ": no samples to measure the model on");
        const Matrix out = predictRaw(model_->model, model_->saved, data.features);
        const Task task = model_->saved.task();
        const double value = headlineMetric(task, out, data.targetMatrix());
        metric_->setText(tr("%1 %2 on %3 samples")
                             .arg(QString::fromStdString(headlineMetricName(task)))
                             .arg(value, 0, 'f', 4)
                             .arg(data.size()));
        const std::string skipped = data.skippedFilesWarning();
        if (skipped.empty()) status_->hide();
        else showStatus(QString::fromStdString(skipped), true);
    } catch (const std::exception& e) {
        showStatus(tr("Cannot measure the model: %1").arg(QString::fromUtf8(e.what())), true);
        return false;
    }
    return true;
}

bool OpenModelDialog::savePredictions(const QString& csvPath) {
    if (!model_ || dataPath().isEmpty()) {
        showStatus(model_ ? tr("Choose the data to predict.") : tr("Open a model first."), true);
        return false;
    }
    try {
        WaitCursor wait;
        const ModelPredictions p = predictData(model_->model, model_->saved, requestFor(dataPath()));
        writeFileAtomically(csvPath.toStdString(), predictionsCsv(model_->saved, p));
        QString text = tr("Wrote %1 predictions to %2").arg(p.outputs.rows()).arg(csvPath);
        if (!p.warning.empty()) text += QLatin1Char('\n') + QString::fromStdString(p.warning);
        showStatus(text, false);
    } catch (const std::exception& e) {
        showStatus(tr("Cannot save the predictions: %1").arg(QString::fromUtf8(e.what())), true);
        return false;
    }
    return true;
}

void OpenModelDialog::browseData() {
    const QString start = dataPath().isEmpty() ? (settings_ ? settings_->lastDataFolder() : QString()) : dataPath();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Data for the model"), start,
        tr("Data files (*.csv *.tsv *.txt *.gz *-ubyte *.idx* *.png *.jpg *.jpeg *.bmp);;All files (*)"));
    if (path.isEmpty()) return;
    if (settings_) settings_->setLastDataFolder(QFileInfo(path).absolutePath());
    data_->setText(path);
}

void OpenModelDialog::choosePredictionsFile() {
    const QFileInfo data(dataPath());
    const QString suggestion = (data.exists() ? data.absolutePath() : QFileInfo(modelPath_).absolutePath()) +
                               QLatin1Char('/') + QFileInfo(modelPath_).completeBaseName() + QStringLiteral("-predictions.csv");
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Predictions"), suggestion, tr("CSV files (*.csv)"));
    if (!path.isEmpty()) savePredictions(path);
}

}  // namespace skynnet::ui
