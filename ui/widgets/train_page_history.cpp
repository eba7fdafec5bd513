// The Train page's log and the record of the run it shows: the log view (Save Log… writes it as
// a text file; a kept run shown from the list or a reopened project brings its own log back) and
// the line that says when the run shown no longer matches the project's data, network or split.
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QTime>

#include "ui/core/app_settings.h"
#include "ui/core/project_document.h"
#include "ui/core/run_history.h"
#include "ui/core/training_session.h"
#include "ui/widgets/file_chooser.h"
#include "ui/widgets/train_page.h"

namespace skynnet::ui {

QWidget* TrainPage::buildLog() {
    log_ = new QPlainTextEdit;
    log_->setObjectName(QStringLiteral("trainLog"));
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(5000);
    log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    saveLog_ = new QPushButton(tr("Save Log…"));
    saveLog_->setToolTip(tr("Write the log as a text file"));
    connect(saveLog_, &QPushButton::clicked, this, &TrainPage::saveLog);
    connect(document_, &ProjectDocument::shownRunChanged, this, &TrainPage::showRunLog);
    connect(document_, &ProjectDocument::projectReplaced, log_, &QPlainTextEdit::clear);  // the log is the project's
    return log_;
}

QLabel* TrainPage::buildOutOfDateLine() {
    outOfDate_ = new QLabel;
    outOfDate_->setObjectName(QStringLiteral("trainOutOfDate"));
    outOfDate_->setWordWrap(true);
    outOfDate_->setStyleSheet(QStringLiteral("QLabel { background: #fff4d6; color: #6b4a00; border: 1px solid #e0c070;"
                                             " border-radius: 4px; padding: 4px; }"));
    outOfDate_->hide();
    for (auto signal :
         {&ProjectDocument::dataChanged, &ProjectDocument::networkChanged, &ProjectDocument::splitOptionsChanged,
          &ProjectDocument::runsChanged, &ProjectDocument::shownRunChanged})
        connect(document_, signal, this, &TrainPage::updateOutOfDate);
    connect(session_, &TrainingSession::started, this, &TrainPage::updateOutOfDate);
    return outOfDate_;
}

void TrainPage::appendLog(const QString& line) { log_->appendPlainText(logLine(line, QTime::currentTime())); }

void TrainPage::showRunLog() {
    const ProjectRun* run = document_->shownRunRecord();
    if (!run) return;
    QString log = QString::fromStdString(run->log);
    if (log.endsWith(QLatin1Char('\n'))) log.chop(1);  // appendPlainText adds the line break
    log_->setPlainText(log);
    if (log.isEmpty()) log_->appendPlainText(tr("(no log was recorded for this run)"));
    appendLog(
        tr("showing the run started %1 (%2)").arg(runStartText(*run), QString::fromStdString(statusName(run->status))));
    // At the newest line, as a running log is: setPlainText left the view at the oldest.
    log_->verticalScrollBar()->setValue(log_->verticalScrollBar()->maximum());
}

void TrainPage::updateOutOfDate() {
    const ProjectRun* run = document_->showsSessionRun(session_->plan()) ? document_->shownRunRecord() : nullptr;
    const QString text = run && !session_->running() ? ui::outOfDateText(outOfDateParts(*run, *document_)) : QString();
    outOfDate_->setText(text);
    outOfDate_->setVisible(!text.isEmpty());
}

QString TrainPage::outOfDateText() const { return outOfDate_->isHidden() ? QString() : outOfDate_->text(); }

bool TrainPage::saveLogTo(const QString& path, QString* error) const {
    QSaveFile file(path);  // the old file stays whole if writing fails
    const QByteArray text = log_->toPlainText().toUtf8() + '\n';
    const bool ok = file.open(QIODevice::WriteOnly | QIODevice::Text) && file.write(text) == text.size() &&
                    file.commit();
    if (!ok && error) *error = tr("cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return ok;
}

QString TrainPage::projectFolder() const {
    const QString project = document_->filePath();
    return project.isEmpty() ? (settings_ ? settings_->lastProjectFolder() : QString())
                             : QFileInfo(project).absolutePath();
}

void TrainPage::saveLog() {
    const QString project = document_->filePath();
    const QString folder = projectFolder();
    const QString base = project.isEmpty() ? QStringLiteral("training") : QFileInfo(project).completeBaseName();
    const QString path = askForFile(this, {FileRequest::SaveFile, tr("Save Log"),
                                           folder + QLatin1Char('/') + base + QStringLiteral("-log.txt"),
                                           tr("Text files (*.txt);;All files (*)")});
    if (path.isEmpty()) return;
    QString error;
    if (!saveLogTo(path, &error)) showError(tr("The log could not be saved: %1").arg(error));
}

}  // namespace skynnet::ui
