#pragma once
// The Train page's "Run on" box: this machine (the app trains in its own process), or the machines
// of an Open MPI hostfile (skynnet-cli under mpirun, see ui/core/host_run.h), with the hostfile,
// the number of ranks, and Check, which runs `skynnet-cli mpi-check` and lists each host with its
// cores, or shows why it failed (no mpirun, a build without the MPI backend, a host down).
#include <QGroupBox>
#include <QProcess>
#include <functional>
#include <memory>

#include "project/project_file.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace skynnet::ui {

class RunOnPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit RunOnPanel(QWidget* parent = nullptr);
    ~RunOnPanel() override;

    RunPlace place() const;
    void setPlace(const RunPlace& place);  // no `edited` signal
    void setRunning(bool running);         // the choice is locked while a run goes on

    QComboBox* targetBox() const { return target_; }
    QLineEdit* hostfileEdit() const { return hostfile_; }
    QSpinBox* ranksBox() const { return ranks_; }
    QPushButton* browseButton() const { return browse_; }
    QPushButton* checkButton() const { return check_; }
    // Where Browse… starts while no hostfile is chosen (the hostfile's own folder once one is).
    void setStartFolder(std::function<QString()> folder) { startFolder_ = std::move(folder); }
    QLabel* checkResult() const { return result_; }
    // Whether a check is running (for tests, which wait for it to end).
    bool checking() const;

signals:
    void edited();         // the user changed the choice
    void checkFinished();  // the check's result is shown

private:
    void updateEnabled();
    void browse();
    void runCheck();
    void onCheckEnded(int exitCode, QProcess::ExitStatus status);
    void showResult(const QString& text, bool error);

    QComboBox* target_ = nullptr;
    QLineEdit* hostfile_ = nullptr;
    QPushButton* browse_ = nullptr;
    QSpinBox* ranks_ = nullptr;
    QPushButton* check_ = nullptr;
    QLabel* result_ = nullptr;
    std::unique_ptr<QProcess> checkProcess_;
    std::function<QString()> startFolder_;
    bool updating_ = false, running_ = false;
};

}  // namespace skynnet::ui
