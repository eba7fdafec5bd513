#pragma once
// A QSpinBox that lets a number beyond its limits be typed, then sets the nearest limit and says
// so through limitApplied(). A plain QSpinBox refuses the keystroke that crosses the limit, so
// typing 100 where the most is 64 silently leaves 10 in the box.
#include <QSpinBox>

namespace skynnet::ui {

class LimitSpinBox : public QSpinBox {
    Q_OBJECT
public:
    explicit LimitSpinBox(QWidget* parent = nullptr);

    QValidator::State validate(QString& input, int& pos) const override;
    void fixup(QString& input) const override;

signals:
    // After the typed value `typed` was replaced by `limit` (the minimum or the maximum).
    void limitApplied(int typed, int limit);

private:
    mutable int clampedFrom_ = 0;  // set by fixup(), which Qt declares const
    mutable bool clamped_ = false;
};

}  // namespace skynnet::ui
