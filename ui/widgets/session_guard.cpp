#include "ui/widgets/session_guard.h"

#include <QApplication>
#include <QMessageBox>

#include "ui/core/training_session.h"

namespace skynnet::ui {

bool confirmStopTraining(QWidget* parent, TrainingSession* session, const QString& action) {
    if (!session || !session->running()) return true;
    const auto answer = QMessageBox::question(parent, QObject::tr("Training is running"),
                                              QObject::tr("Training is running. Stop it and %1?").arg(action),
                                              QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes) return false;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    session->stop();
    session->waitForFinished();  // workers stop at their next batch boundary
    QApplication::restoreOverrideCursor();
    return true;
}

}  // namespace skynnet::ui
