#pragma once
// Ctrl+Z (and redo) while the cursor is still in a number box, the moment people undo. A spin
// box's line edit takes the keys for its own text history, so the project's undo did nothing
// until the box was left. With this filter installed on the application, the box keeps them only
// while it holds digits typed since its last Enter or focus (its own undo is what was meant);
// otherwise the project's Undo and Redo take them.
#include <QObject>

namespace skynnet::ui {

class SpinBoxUndo : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace skynnet::ui
