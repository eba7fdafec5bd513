#pragma once
// File > Open Model…: a model file (.skym, what File > Export… and `skynnet-cli train --save`
// write) put to work without a project. The dialog describes the model, measures it on a labelled
// dataset the user opens (the headline metric, as `skynnet-cli evaluate` prints it) and saves its
// predictions for a dataset as the CSV `skynnet-cli predict` writes, through the same engine code.
// Errors are shown in the dialog, which stays open to try again; nothing is half-written.
#include <QDialog>
#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;

namespace skynnet::ui {

class AppSettings;

class OpenModelDialog : public QDialog {
    Q_OBJECT
public:
    // settings: the folder the data and CSV dialogs start in (may be null).
    explicit OpenModelDialog(AppSettings* settings, QWidget* parent = nullptr);
    ~OpenModelDialog() override;

    // Reads and rebuilds the model; false with the reason in statusText() (a project file says
    // so). The previous model, if any, stays.
    bool loadModel(const QString& path);
    bool hasModel() const { return bool(model_); }
    QString modelPath() const { return modelPath_; }
    QString modelSummary() const;  // the description line

    void setDataPath(const QString& path);
    QString dataPath() const;
    // The model on the data (with its labels or targets): the metric in metricText().
    bool evaluate();
    QString metricText() const;  // "accuracy 0.9667 on 30 samples"; empty before evaluate()
    // The model's predictions for the data (labels not needed), written atomically to csvPath.
    bool savePredictions(const QString& csvPath);
    QString statusText() const;  // the last error or success; empty when none

private:
    struct Loaded;
    void browseData();
    void choosePredictionsFile();
    void showStatus(const QString& text, bool error);
    void updateButtons();

    AppSettings* settings_;
    std::unique_ptr<Loaded> model_;
    QString modelPath_;
    QLabel* summary_;
    QLineEdit* data_;
    QPushButton* evaluate_;
    QPushButton* predict_;
    QLabel* metric_;
    QLabel* status_;
};

}  // namespace skynnet::ui
