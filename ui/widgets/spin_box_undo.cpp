#include "ui/widgets/spin_box_undo.h"

#include <QAbstractSpinBox>
#include <QEvent>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLineEdit>

namespace skynnet::ui {
namespace {

constexpr char typingProperty[] = "skynnetTyping";  // digits typed since the box last committed
constexpr char watchedProperty[] = "skynnetUndoWatched";

// The box itself takes focus and shortcut events (its line edit's focus proxy); its line edit may
// be handed some too.
QAbstractSpinBox* spinBoxOf(QObject* watched) {
    if (auto* box = qobject_cast<QAbstractSpinBox*>(watched)) return box;
    auto* edit = qobject_cast<QLineEdit*>(watched);
    return edit ? qobject_cast<QAbstractSpinBox*>(edit->parentWidget()) : nullptr;
}

// Once per box, on its first focus: typing marks it, Enter or leaving (the commit) clears it.
void watch(QAbstractSpinBox* box) {
    auto* edit = box->findChild<QLineEdit*>();
    if (!edit || box->property(watchedProperty).toBool()) return;
    box->setProperty(watchedProperty, true);
    QObject::connect(edit, &QLineEdit::textEdited, box, [box] { box->setProperty(typingProperty, true); });
    QObject::connect(box, &QAbstractSpinBox::editingFinished, box, [box] { box->setProperty(typingProperty, false); });
}

}  // namespace

bool SpinBoxUndo::eventFilter(QObject* watched, QEvent* event) {
    const QEvent::Type type = event->type();
    if (type != QEvent::FocusIn && type != QEvent::ShortcutOverride) return false;
    QAbstractSpinBox* box = spinBoxOf(watched);
    if (!box) return false;
    if (type == QEvent::FocusIn) {
        watch(box);
        return false;
    }
    auto* key = static_cast<QKeyEvent*>(event);
    if (!key->matches(QKeySequence::Undo) && !key->matches(QKeySequence::Redo)) return false;
    if (box->property(typingProperty).toBool()) return false;  // the box's own undo of its digits
    key->ignore();  // not the box's: the shortcut goes to the project's Undo or Redo
    return true;
}

}  // namespace skynnet::ui
