// The Train page's runs on the machines of a hostfile: the Run on box, starting skynnet-cli
// through the session, and Resume after such a run failed or was stopped.
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>

#include "ui/core/host_run.h"
#include "ui/core/project_document.h"
#include "ui/core/training_session.h"
#include "ui/widgets/run_on_panel.h"
#include "ui/widgets/train_page.h"

namespace skynnet::ui {

QWidget* TrainPage::buildRunOn() {
    runOn_ = new RunOnPanel;
    runOn_->setMaximumWidth(340);
    runOn_->setStartFolder([this] { return projectFolder(); });
    connect(runOn_, &RunOnPanel::edited, this, &TrainPage::toDocument);
    return runOn_;
}

void TrainPage::startOnHosts(bool resume) {
    if (session_->running()) return;
    const ProjectTraining& t = document_->trainSettings();
    const QString hostfile = QString::fromStdString(t.runOn.hostfile);
    if (hostfile.isEmpty()) return showError(tr("Choose the hostfile of the machines to run on."));
    if (!QFileInfo(hostfile).isFile()) return showError(tr("The hostfile %1 does not exist.").arg(hostfile));
    // A resumed run trains the same copy again, beside which the tool keeps its checkpoints. Every
    // rank reads the copy from its path, so it goes beside the saved project (a folder the other
    // machines share, as clusters share home folders); an untitled project's goes to /tmp, which
    // only this machine sees.
    if (!resume || !hostRunDir_) {
        const QString project = document_->filePath();
        hostRunDir_ = project.isEmpty() ? std::make_unique<QTemporaryDir>()
                                        : std::make_unique<QTemporaryDir>(project + QStringLiteral(".run-XXXXXX"));
        if (!hostRunDir_->isValid())
            return showError(tr("Cannot make a folder for the run: %1").arg(hostRunDir_->errorString()));
        if (project.isEmpty())
            log_->appendPlainText(tr("The project is untitled, so the run's copy of it is in %1, which other machines "
                                     "cannot read: save the project in a folder they share to train on them.")
                                      .arg(hostRunDir_->path()));
    }
    const QString copy = hostRunDir_->filePath(QStringLiteral("run.skynnet"));
    try {
        if (!resume) writeProjectCopy(copy, *document_, *session_);
    } catch (const std::exception& e) {
        return showError(tr("Cannot save the project for the run: %1").arg(QString::fromUtf8(e.what())));
    }
    resumeOnHosts_->hide();
    const RunCommand command = hostRunCommand(copy, t.runOn, t.threadBudget, resume);
    session_->startCommand(command.program, command.arguments, copy);
    updateButtons();
}

void TrainPage::offerResumeOnHosts(TrainStatus status) {
    // Only once a submodel started: a run refused before that (a bad hostfile, no mpirun) has no
    // checkpoint to continue from, and Start is the way to try again.
    bool began = false;
    for (int i = 0; i < int(session_->submodels().size()); ++i) began = began || !session_->submodelHost(i).isEmpty();
    const bool offer = session_->runsInAnotherProcess() && hostRunDir_ && began &&
                       (status == TrainStatus::Failed || status == TrainStatus::Cancelled);
    resumeOnHosts_->setVisible(offer);
}

}  // namespace skynnet::ui
