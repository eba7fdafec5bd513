#include "ui/widgets/limit_spin_box.h"

#include <QLineEdit>

namespace skynnet::ui {
namespace {

// The number in the box's text without prefix and suffix, if it is one.
bool typedNumber(const QSpinBox* box, const QString& input, int* value) {
    QString text = input;
    if (!box->prefix().isEmpty() && text.startsWith(box->prefix())) text.remove(0, box->prefix().size());
    if (!box->suffix().isEmpty() && text.endsWith(box->suffix())) text.chop(box->suffix().size());
    bool ok = false;
    *value = box->locale().toInt(text.trimmed(), &ok);
    return ok;
}

}  // namespace

LimitSpinBox::LimitSpinBox(QWidget* parent) : QSpinBox(parent) {
    setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
    connect(this, &QAbstractSpinBox::editingFinished, this, [this] {
        if (!clamped_) return;
        clamped_ = false;
        emit limitApplied(clampedFrom_, value());
    });
}

QValidator::State LimitSpinBox::validate(QString& input, int& pos) const {
    const QValidator::State state = QSpinBox::validate(input, pos);
    int typed = 0;
    // Out of range is not yet wrong: the box corrects it on Enter or leaving, and says so.
    if (state == QValidator::Invalid && typedNumber(this, input, &typed) && (typed > maximum() || typed < minimum()))
        return QValidator::Intermediate;
    return state;
}

void LimitSpinBox::fixup(QString& input) const {
    int typed = 0;
    if (typedNumber(this, input, &typed) && (typed > maximum() || typed < minimum())) {
        clampedFrom_ = typed;
        clamped_ = true;
        input = textFromValue(typed > maximum() ? maximum() : minimum());
        return;
    }
    QSpinBox::fixup(input);
}

}  // namespace skynnet::ui
