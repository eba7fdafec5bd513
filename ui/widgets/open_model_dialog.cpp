#include "ui/widgets/open_model_dialog.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "data/data_source.h"
#include "split/combined_model.h"
#include "split/combined_model_file.h"
#include "ui/core/app_settings.h"
#include "ui/core/model_job.h"
#include "ui/widgets/file_chooser.h"
#include "ui/widgets/format.h"

namespace skynnet::ui {
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
    case Task::Reconstruction: return OpenModelDialog::tr("reconstruction of its %1 inputs").arg(m.rule.outputs);
    }
    return {};
}

}  // namespace

OpenModelDialog::OpenModelDialog(AppSettings* settings, QWidget* parent)
    : QDialog(parent), settings_(settings), job_(new ModelJob(this)) {
    setWindowTitle(tr("Open Model"));
    summary_ = new QLabel(tr("No model opened."));
    summary_->setObjectName(QStringLiteral("modelSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    data_ = new QLineEdit;
    data_->setPlaceholderText(tr("A CSV/TSV file, IDX images, an image folder or builtin:NAME"));
    data_->setToolTip(tr("Data laid out like the model's training data. Measuring needs its labels or target column; "
                         "predicting does not."));
    browse_ = new QPushButton(tr("Browse…"));
    connect(browse_, &QPushButton::clicked, this, &OpenModelDialog::browseData);
    auto* dataRow = new QHBoxLayout;
    dataRow->addWidget(data_, 1);
    dataRow->addWidget(browse_);

    evaluate_ = new QPushButton(tr("Measure"));
    evaluate_->setToolTip(
        tr("Run the model on the data and compare its answers with the data's own labels or targets"));
    connect(evaluate_, &QPushButton::clicked, this, &OpenModelDialog::startEvaluate);
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

    buildProgressRow();

    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("openModelStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->hide();

    auto* form = new QFormLayout;
    form->addRow(tr("Data:"), dataRow);
    form->addRow(QString(), actions);
    form->addRow(QString(), progressRow_);
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

// While a job runs: what it does, how far it got, and Cancel.
void OpenModelDialog::buildProgressRow() {
    progress_ = new QProgressBar;
    progress_->setRange(0, 100);
    stage_ = new QLabel;
    stage_->setObjectName(QStringLiteral("openModelStage"));
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setToolTip(tr("Stop measuring or predicting; no file is written"));
    connect(cancel_, &QPushButton::clicked, this, &OpenModelDialog::cancelJob);
    progressRow_ = new QWidget;
    auto* progressLayout = new QHBoxLayout(progressRow_);
    progressLayout->setContentsMargins(0, 0, 0, 0);
    progressLayout->addWidget(stage_);
    progressLayout->addWidget(progress_, 1);
    progressLayout->addWidget(cancel_);
    progressRow_->hide();
    connect(job_, &ModelJob::progressChanged, this,
            [this](ModelJob::Stage stage, double fraction) { onJobProgress(int(stage), fraction); });
    connect(job_, &ModelJob::finished, this, &OpenModelDialog::onJobFinished);
}

OpenModelDialog::~OpenModelDialog() = default;

bool OpenModelDialog::loadModel(const QString& path) {
    try {
        WaitCursor wait;
        auto loaded = std::make_shared<LoadedModel>();
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
    const bool ready = model_ && !dataPath().isEmpty() && !job_->running();
    evaluate_->setEnabled(ready);
    predict_->setEnabled(ready);
    data_->setEnabled(!job_->running());
}

void OpenModelDialog::showStatus(const QString& text, bool error) {
    status_->setText(text);
    status_->setStyleSheet(
        error ? QStringLiteral("QLabel { background: #fde2e1; color: #8a1c1c; border: 1px solid #e0a0a0;"
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
    r.path = path.startsWith(QLatin1String("builtin:")) ? path.toStdString()
                                                        : QFileInfo(path).absoluteFilePath().toStdString();
    return r;
}

}  // namespace

bool OpenModelDialog::canStart(const QString& missingData) {
    if (job_->running()) return false;  // the buttons are disabled meanwhile
    if (!model_ || dataPath().isEmpty()) {
        showStatus(model_ ? missingData : tr("Open a model first."), true);
        return false;
    }
    return true;
}

bool OpenModelDialog::startEvaluate() {
    if (!canStart(tr("Choose the data to measure the model on."))) return false;
    metric_->clear();
    status_->hide();
    job_->measure(model_, requestFor(dataPath()));
    updateButtons();
    return true;
}

bool OpenModelDialog::startPredictions(const QString& csvPath) {
    if (!canStart(tr("Choose the data to predict."))) return false;
    status_->hide();
    job_->predict(model_, requestFor(dataPath()), csvPath);
    updateButtons();
    return true;
}

bool OpenModelDialog::busy() const { return job_->running(); }

void OpenModelDialog::cancelJob() {
    if (!job_->running()) return;
    job_->cancel();
    stage_->setText(tr("Cancelling…"));
    cancel_->setEnabled(false);
}

bool OpenModelDialog::waitForJob(int timeoutMs) { return job_->waitForFinished(timeoutMs) && lastJobOk_; }

bool OpenModelDialog::evaluate() { return startEvaluate() && waitForJob(); }

bool OpenModelDialog::savePredictions(const QString& csvPath) { return startPredictions(csvPath) && waitForJob(); }

void OpenModelDialog::onJobProgress(int stage, double fraction) {
    progressRow_->show();
    if (!cancel_->isEnabled()) return;  // "Cancelling…" stays until the job has ended
    switch (ModelJob::Stage(stage)) {
    case ModelJob::Reading:
        stage_->setText(tr("Reading the data…"));
        progress_->setRange(0, 0);  // no measure of how far a file has been read
        return;
    case ModelJob::Predicting:
        stage_->setText(tr("Predicting…"));
        progress_->setRange(0, 100);
        progress_->setValue(int(fraction * 100.0));
        return;
    case ModelJob::Writing:
        stage_->setText(tr("Writing the file…"));
        progress_->setRange(0, 0);
        return;
    case ModelJob::Idle: return;
    }
}

void OpenModelDialog::onJobFinished(const ModelJobResult& r) {
    progressRow_->hide();
    cancel_->setEnabled(true);
    progress_->setRange(0, 100);
    progress_->setValue(0);
    updateButtons();
    lastJobOk_ = r.ok;
    const bool measuring = r.kind == ModelJobResult::Measure;
    if (r.cancelled) {
        showStatus(measuring ? tr("Cancelled: the model was not measured.")
                             : tr("Cancelled: no predictions were written."),
                   false);
    } else if (!r.ok) {
        showStatus((measuring ? tr("Cannot measure the model: %1") : tr("Cannot save the predictions: %1"))
                       .arg(r.error),
                   true);
    } else if (measuring) {
        metric_->setText(tr("%1 %2 on %3 samples")
                             .arg(QString::fromStdString(r.metricName))
                             .arg(r.metric, 0, 'f', 4)
                             .arg(r.samples));
        if (r.warning.isEmpty()) status_->hide();
        else showStatus(r.warning, true);
    } else {
        QString text = tr("Wrote %1 predictions to %2").arg(r.samples).arg(r.csvPath);
        if (!r.warning.isEmpty()) text += QLatin1Char('\n') + r.warning;
        showStatus(text, false);
    }
    emit jobFinished(r.ok);
}

void OpenModelDialog::reject() {
    job_->cancel();
    QDialog::reject();
}

void OpenModelDialog::browseData() {
    const QString start = dataPath().isEmpty() ? (settings_ ? settings_->lastDataFolder() : QString()) : dataPath();
    const QString path = askForFile(this, {FileRequest::OpenFile, tr("Data for the model"), start,
                                           tr("Data files (*.csv *.tsv *.txt *.gz *-ubyte *.idx* *.png *.jpg *.jpeg "
                                              "*.bmp);;All files (*)")});
    if (path.isEmpty()) return;
    if (settings_) settings_->setLastDataFolder(QFileInfo(path).absolutePath());
    data_->setText(path);
}

void OpenModelDialog::choosePredictionsFile() {
    const QFileInfo data(dataPath());
    const QString suggestion = (data.exists() ? data.absolutePath() : QFileInfo(modelPath_).absolutePath()) +
                               QLatin1Char('/') + QFileInfo(modelPath_).completeBaseName() +
                               QStringLiteral("-predictions.csv");
    const QString path = askForFile(this, {FileRequest::SaveFile, tr("Save Predictions"), suggestion,
                                           tr("CSV files (*.csv)")});
    if (!path.isEmpty()) startPredictions(path);
}

}  // namespace skynnet::ui
