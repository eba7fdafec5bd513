#pragma once
// File > Export…: the trained combined model as a native Skynnet model file (.skym), as ONNX
// (one graph from raw features to the combined answer, and optionally each submodel on its own),
// or as a self-contained C++ header. Errors are shown in the dialog, which stays open to try again.
#include <QDialog>
#include <QStringList>

#include "split/combined_model_file.h"

class QCheckBox;
class QFormLayout;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace skynnet::ui {

class AppSettings;

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    enum Format { NativeModel, Onnx, CppHeader };

    // suggestedPath: where to write, without the suffix the format adds (e.g. the project's name).
    // settings (may be null): Browse… opens in the folder of the last export, which a successful
    // export or a file chosen with Browse… sets.
    ExportDialog(SavedCombinedModel model, const QString& suggestedPath, AppSettings* settings = nullptr,
                 QWidget* parent = nullptr);

    Format format() const;
    void setFormat(Format format);  // the path's suffix follows
    QString path() const;
    void setPath(const QString& path);
    void setEachSubmodel(bool on);  // ONNX: also one file per submodel, "<name>-sub<i>.onnx"
    void setCppNamespace(const QString& name);

    // Writes the chosen export; on failure the message is in statusText() and nothing is left
    // half-written (every writer is atomic). Returns whether every file was written.
    bool exportNow();
    QString statusText() const;
    QStringList writtenFiles() const { return written_; }
    QPushButton* exportButton() const { return export_; }
    QPushButton* browseButton() const { return browse_; }
    // Where Browse… opens: the remembered export folder with the current file name, else the path.
    QString browseStart() const;

private:
    void browse();
    void onFormatChanged();
    void showStatus(const QString& text, bool error);

    SavedCombinedModel model_;
    AppSettings* settings_;
    QComboBox* format_;
    QLineEdit* path_;
    QCheckBox* preprocessing_;
    QCheckBox* eachSubmodel_;
    QLineEdit* namespace_;
    QFormLayout* form_;  // its rows that do not apply to the format are hidden, not greyed
    QLabel* status_;
    QPushButton* export_;
    QPushButton* browse_;
    QStringList written_;
};

}  // namespace skynnet::ui
