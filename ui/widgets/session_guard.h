#pragma once
// The one question asked before anything that would pull the data out from under a running
// training (closing the window, opening another dataset): ask, then cancel cleanly and wait.
#include <QString>

class QWidget;

namespace skynnet::ui {

class TrainingSession;

// True when nothing is running, or the user agreed and the run has stopped (stop + wait);
// false when the user chose to keep training. `action` completes "Training is running. ... ?".
bool confirmStopTraining(QWidget* parent, TrainingSession* session, const QString& action);

}  // namespace skynnet::ui
