#include "ui/widgets/run_on_panel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "core/error.h"
#include "ui/core/host_run.h"
#include "ui/widgets/file_chooser.h"

namespace skynnet::ui {

RunOnPanel::RunOnPanel(QWidget* parent) : QGroupBox(tr("Run on"), parent) {
    target_ = new QComboBox;
    target_->addItem(tr("this machine"));
    target_->addItem(tr("the machines in a hostfile"));
    target_->setToolTip(tr("This machine: the app trains the submodels itself. A hostfile: skynnet-cli runs them under "
                           "mpirun on the machines it lists, and the app shows their progress"));
    hostfile_ = new QLineEdit;
    hostfile_->setPlaceholderText(tr("Open MPI hostfile"));
    hostfile_->setToolTip(tr("An Open MPI hostfile: one machine per line, e.g. 'node1 slots=4'. Every machine needs "
                             "skynnet-cli of this build and the data at the same path"));
    browse_ = new QPushButton(tr("Browse…"));
    ranks_ = new QSpinBox;
    ranks_->setRange(2, 4096);
    ranks_->setToolTip(
        tr("MPI ranks (mpirun -np): rank 0 plans and combines, each other rank trains one submodel at a time"));
    check_ = new QPushButton(tr("Check"));
    check_->setToolTip(tr("Start a short MPI hello on the machines and list each with its cores"));
    result_ = new QLabel;
    result_->setObjectName(QStringLiteral("runOnCheckResult"));
    result_->setWordWrap(true);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    result_->hide();

    auto* file = new QHBoxLayout;
    file->setContentsMargins(0, 0, 0, 0);
    file->addWidget(hostfile_, 1);
    file->addWidget(browse_);
    auto* ranks = new QHBoxLayout;
    ranks->setContentsMargins(0, 0, 0, 0);
    ranks->addWidget(ranks_);
    ranks->addWidget(check_);
    ranks->addStretch();
    auto* form = new QFormLayout(this);
    form->addRow(tr("Run on:"), target_);
    form->addRow(tr("Hostfile:"), file);
    form->addRow(tr("Ranks:"), ranks);
    form->addRow(result_);

    connect(target_, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        if (!updating_) emit edited();
    });
    connect(hostfile_, &QLineEdit::editingFinished, this, [this] {
        if (!updating_) emit edited();
    });
    connect(ranks_, &QSpinBox::valueChanged, this, [this] {
        if (!updating_) emit edited();
    });
    connect(browse_, &QPushButton::clicked, this, &RunOnPanel::browse);
    connect(check_, &QPushButton::clicked, this, &RunOnPanel::runCheck);
    updateEnabled();
}

RunOnPanel::~RunOnPanel() {
    if (checkProcess_ && checkProcess_->state() != QProcess::NotRunning) {
        checkProcess_->disconnect(this);
        checkProcess_->kill();
        checkProcess_->waitForFinished(3000);
    }
}

RunPlace RunOnPanel::place() const {
    RunPlace p;
    p.onHosts = target_->currentIndex() == 1;
    p.hostfile = hostfile_->text().trimmed().toStdString();
    p.ranks = ranks_->value();
    return p;
}

void RunOnPanel::setPlace(const RunPlace& p) {
    updating_ = true;
    target_->setCurrentIndex(p.onHosts ? 1 : 0);
    hostfile_->setText(QString::fromStdString(p.hostfile));
    ranks_->setValue(p.ranks);
    updating_ = false;
    updateEnabled();
}

void RunOnPanel::setRunning(bool running) {
    running_ = running;
    updateEnabled();
}

bool RunOnPanel::checking() const { return checkProcess_ && checkProcess_->state() != QProcess::NotRunning; }

void RunOnPanel::updateEnabled() {
    const bool hosts = target_->currentIndex() == 1;
    target_->setEnabled(!running_);
    for (QWidget* w : std::initializer_list<QWidget*>{hostfile_, browse_, ranks_}) w->setEnabled(hosts && !running_);
    check_->setEnabled(hosts && !checking());
    if (!hosts) result_->hide();
}

void RunOnPanel::browse() {
    const QString chosen = hostfile_->text().trimmed();
    const QString start = !chosen.isEmpty() || !startFolder_ ? chosen : startFolder_();
    const QString path = askForFile(this, {FileRequest::OpenFile, tr("Open MPI hostfile"), start, {}});
    if (path.isEmpty()) return;
    hostfile_->setText(path);
    emit edited();
}

void RunOnPanel::showResult(const QString& text, bool error) {
    result_->setText(text);
    result_->setStyleSheet(error ? QStringLiteral("QLabel { color: #8a1c1c; }") : QString());
    result_->show();
}

void RunOnPanel::runCheck() {
    if (checking()) return;
    const RunPlace p = place();
    if (p.hostfile.empty()) {
        showResult(tr("Choose a hostfile first."), true);
        return;
    }
    checkProcess_ = std::make_unique<QProcess>();
    connect(checkProcess_.get(), &QProcess::finished, this, &RunOnPanel::onCheckEnded);
    connect(checkProcess_.get(), &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart) return;
        showResult(tr("Cannot run %1: %2").arg(checkProcess_->program(), checkProcess_->errorString()), true);
        updateEnabled();
        emit checkFinished();
    });
    showResult(tr("checking…"), false);
    checkProcess_->start(skynnetCliProgram(), mpiCheckArguments(p));
    updateEnabled();
}

void RunOnPanel::onCheckEnded(int exitCode, QProcess::ExitStatus status) {
    const QByteArray out = checkProcess_->readAllStandardOutput();
    QString err = QString::fromUtf8(checkProcess_->readAllStandardError()).trimmed();
    if (err.startsWith(QStringLiteral("skynnet-cli: "))) err = err.mid(13);
    if (status != QProcess::NormalExit || exitCode != 0) {
        showResult(tr("Check failed: %1").arg(err.isEmpty() ? tr("exit status %1").arg(exitCode) : err), true);
    } else {
        try {
            const std::vector<RankInfo> ranks = parseMpiCheck(out);
            if (ranks.empty()) throw Error("mpi-check printed no rank");
            showResult(describeRanks(ranks), false);
        } catch (const std::exception& e) {
            showResult(tr("Check failed: %1").arg(QString::fromUtf8(e.what())), true);
        }
    }
    updateEnabled();
    emit checkFinished();
}

}  // namespace skynnet::ui
