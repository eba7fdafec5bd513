#include "ui/widgets/export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "export/cpp_export.h"
#include "export/onnx_export.h"
#include "export/onnx_vocabulary.h"
#include "ui/core/app_settings.h"
#include "ui/widgets/file_chooser.h"
#include "ui/widgets/format.h"

namespace skynnet::ui {
namespace {

// The native model is ".skym": ".skynnet" is the project's, and a model saved under it would be
// opened as a project. An older suggestion's ".skynnet" is dropped all the same.
const char* const suffixes[] = {".skym", ".onnx", ".h"};
const char* const oldModelSuffix = ".skynnet";

// "<dir>/<name>" of a path, whatever known suffix it ends with.
QString withoutSuffix(const QString& path) {
    for (const char* s : suffixes)
        if (path.endsWith(QLatin1String(s))) return path.left(path.size() - int(qstrlen(s)));
    if (path.endsWith(QLatin1String(oldModelSuffix))) return path.left(path.size() - int(qstrlen(oldModelSuffix)));
    return path;
}

std::int64_t totalParams(const SavedCombinedModel& m) {
    std::int64_t n = 0;
    for (const auto& w : m.weights) n += std::int64_t(w.size());
    return n;
}

}  // namespace

ExportDialog::ExportDialog(SavedCombinedModel model, const QString& suggestedPath, AppSettings* settings,
                           QWidget* parent)
    : QDialog(parent), model_(std::move(model)), settings_(settings) {
    setWindowTitle(tr("Export the combined model"));
    format_ = new QComboBox;
    format_->addItem(tr("Skynnet model file (.skym)"), int(NativeModel));
    format_->addItem(tr("ONNX graph (.onnx)"), int(Onnx));
    format_->addItem(tr("C++ header (.h)"), int(CppHeader));
    format_->setItemData(NativeModel, tr("For skynnet-cli predict and evaluate, and for File > Open Model in Skynnet"),
                         Qt::ToolTipRole);
    format_->setItemData(Onnx, tr("One graph from raw features to the combined answer, for ONNX Runtime and friends"),
                         Qt::ToolTipRole);
    format_->setItemData(CppHeader, tr("The weights and a predict() function in standard C++17, nothing to link"),
                         Qt::ToolTipRole);
    if (!onnxExportAvailable()) {  // built without the ONNX library: shown, but not offered
        if (auto* items = qobject_cast<QStandardItemModel*>(format_->model())) items->item(Onnx)->setEnabled(false);
        format_->setItemData(Onnx, tr("This build was made without the ONNX library"), Qt::ToolTipRole);
    }
    path_ = new QLineEdit(withoutSuffix(suggestedPath) + QLatin1String(suffixes[NativeModel]));
    browse_ = new QPushButton(tr("Browse…"));
    connect(browse_, &QPushButton::clicked, this, &ExportDialog::browse);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browse_);

    preprocessing_ = new QCheckBox(tr("Include the preprocessing (input: raw feature columns)"));
    preprocessing_->setChecked(true);
    preprocessing_->setToolTip(tr("Off: the graph takes the networks' inputs, already scaled and one-hot encoded"));
    eachSubmodel_ = new QCheckBox(tr("Also each submodel separately (<name>-sub1.onnx, …)"));
    eachSubmodel_->setToolTip(tr("Every submodel as a graph of its own, with the same input and its own outputs"));
    namespace_ = new QLineEdit(QStringLiteral("skynnet_model"));
    namespace_->setToolTip(tr("The C++ namespace of the generated code, e.g. acme::models"));

    auto* summary = new QLabel(tr("%1 submodel(s) combined by %2 · %3 parameters · %4 raw input columns → %5 output(s)")
                                   .arg(model_.submodelCount())
                                   .arg(QString::fromStdString(strategyName(model_.rule.strategy)))
                                   .arg(formatCount(totalParams(model_)))
                                   .arg(model_.rawColumns())
                                   .arg(model_.rule.outputs));
    summary->setWordWrap(true);

    form_ = new QFormLayout;
    form_->addRow(tr("Format:"), format_);
    form_->addRow(tr("File:"), pathRow);
    form_->addRow(QString(), preprocessing_);
    form_->addRow(QString(), eachSubmodel_);
    form_->addRow(tr("Namespace:"), namespace_);

    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("exportStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->hide();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    export_ = buttons->addButton(tr("Export"), QDialogButtonBox::ActionRole);
    export_->setDefault(true);
    connect(export_, &QPushButton::clicked, this, &ExportDialog::exportNow);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary);
    layout->addLayout(form_);
    layout->addWidget(status_);
    layout->addStretch();
    layout->addWidget(buttons);
    connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::onFormatChanged);
    onFormatChanged();
    resize(620, sizeHint().height());
}

ExportDialog::Format ExportDialog::format() const { return Format(format_->currentData().toInt()); }

void ExportDialog::setFormat(Format format) { format_->setCurrentIndex(format_->findData(int(format))); }

QString ExportDialog::path() const { return path_->text().trimmed(); }

void ExportDialog::setPath(const QString& path) { path_->setText(path); }

void ExportDialog::setEachSubmodel(bool on) { eachSubmodel_->setChecked(on); }

void ExportDialog::setCppNamespace(const QString& name) { namespace_->setText(name); }

QString ExportDialog::statusText() const { return status_->isHidden() ? QString() : status_->text(); }

void ExportDialog::onFormatChanged() {
    const Format f = format();
    // Only the options of this format: a greyed box still ticked read as if it applied.
    form_->setRowVisible(preprocessing_, f == Onnx);
    form_->setRowVisible(eachSubmodel_, f == Onnx);
    form_->setRowVisible(namespace_, f == CppHeader);
    if (!path().isEmpty()) path_->setText(withoutSuffix(path()) + QLatin1String(suffixes[f]));
    status_->hide();
}

QString ExportDialog::browseStart() const {
    const QString last = settings_ ? settings_->lastExportFolder() : QString();
    if (last.isEmpty() || !QFileInfo(last).isDir()) return path();
    return QDir(last).filePath(QFileInfo(path()).fileName());
}

void ExportDialog::browse() {
    const QString filters[] = {tr("Skynnet model (*.skym)"), tr("ONNX (*.onnx)"), tr("C++ header (*.h *.hpp)")};
    const QString chosen = askForFile(this, {FileRequest::SaveFile, tr("Export to"), browseStart(), filters[format()]});
    if (chosen.isEmpty()) return;
    path_->setText(chosen);
    if (settings_) settings_->setLastExportFolder(QFileInfo(chosen).absolutePath());
}

void ExportDialog::showStatus(const QString& text, bool error) {
    status_->setText(text);
    status_->setStyleSheet(
        error ? QStringLiteral("QLabel { background: #fde2e1; color: #8a1c1c; border: 1px solid #e0a0a0;"
                               " border-radius: 4px; padding: 6px; }")
              : QStringLiteral("QLabel { background: #e3f4e1; color: #1d5c1a; border: 1px solid #a8d5a2;"
                               " border-radius: 4px; padding: 6px; }"));
    status_->show();
}

bool ExportDialog::exportNow() {
    written_.clear();
    const QString target = path();
    if (target.isEmpty()) {
        showStatus(tr("Choose a file to export to."), true);
        return false;
    }
    const std::string file = target.toStdString();
    try {
        switch (format()) {
        case NativeModel: saveCombinedModel(file, model_); break;
        case CppHeader: {
            CppExportOptions o;
            o.namespaceName = namespace_->text().trimmed().toStdString();
            exportCppHeader(model_, file, o);
            break;
        }
        case Onnx: {
            OnnxOptions o;
            o.includePreprocessing = preprocessing_->isChecked();
            exportOnnx(model_, file, o);
            written_ << target;
            if (const std::string vocabulary = writeOnnxVocabulary(model_.schema, file); !vocabulary.empty())
                written_ << QString::fromStdString(vocabulary);  // the token ids' meaning, for a text model
            if (eachSubmodel_->isChecked())
                for (int i = 0; i < model_.submodelCount(); ++i) {
                    const QString sub = withoutSuffix(target) + QStringLiteral("-sub%1.onnx").arg(i + 1);
                    exportSubmodelOnnx(model_, i, sub.toStdString(), o);
                    written_ << sub;
                }
            break;
        }
        }
    } catch (const std::exception& e) {
        QString text = tr("Export failed: %1").arg(QString::fromUtf8(e.what()));
        if (!written_.isEmpty())
            text += tr("\nWritten before the failure: %1").arg(written_.join(QStringLiteral(", ")));
        showStatus(text, true);
        return false;
    }
    if (written_.isEmpty()) written_ << target;
    if (settings_) settings_->setLastExportFolder(QFileInfo(target).absolutePath());
    showStatus(written_.size() == 1
                   ? tr("Wrote %1").arg(target)
                   : tr("Wrote %1 files: %2").arg(written_.size()).arg(written_.join(QStringLiteral(", "))),
               false);
    return true;
}

}  // namespace skynnet::ui
