#include "ui/widgets/confusion_matrix_widget.h"

#include <QFontMetrics>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "ui/widgets/theme.h"

namespace skynnet::ui {
namespace {

// Correct predictions in blue, confusions in red (the charts' submodel 1 and 4 colours).
const QColor correctHue(31, 119, 180), confusedHue(214, 39, 40);

}  // namespace

ConfusionMatrixWidget::ConfusionMatrixWidget(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ConfusionMatrixWidget::setMatrix(const std::vector<std::vector<long>>& confusion, const QStringList& classNames) {
    matrix_ = confusion;
    names_ = classNames;
    update();
}

ConfusionMatrixWidget::Geometry ConfusionMatrixWidget::geometry() const {
    const int n = std::max(1, int(matrix_.size()));
    const QFontMetrics fm(font());
    // Room for the class names on the left and the axis titles; names longer than that are elided.
    int nameWidth = 0;
    for (const QString& s : names_) nameWidth = std::max(nameWidth, fm.horizontalAdvance(s));
    nameWidth = std::min(nameWidth + 8, width() / 4);
    const int top = fm.height() * 2 + 4, left = nameWidth + fm.height() + 4;
    const int side = std::max(4, std::min((width() - left - 4) / n, (height() - top - 4) / n));
    return {nameWidth, top, left, side};
}

QRect ConfusionMatrixWidget::cellRect(int r, int c) const {
    const Geometry g = geometry();
    return QRect(g.left + c * g.side, g.top + r * g.side, g.side - 1, g.side - 1);
}

double ConfusionMatrixWidget::rowShare(int r, int c) const {
    long rowTotal = 0;
    for (long v : matrix_[std::size_t(r)]) rowTotal += v;
    return rowTotal > 0 ? double(count(r, c)) / double(rowTotal) : 0.0;
}

QColor ConfusionMatrixWidget::cellColor(int r, int c) const {
    // From the page's own background (white, or near black in the dark theme) to the full hue.
    return blend(palette().color(QPalette::Base), r == c ? correctHue : confusedHue, 0.06 + 0.94 * rowShare(r, c));
}

QColor ConfusionMatrixWidget::countColor(int r, int c) const { return readableTextOn(cellColor(r, c)); }

void ConfusionMatrixWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const int n = int(matrix_.size());
    if (n == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        // Wrapped: a narrow pane (1024 x 680) cut the one line at both ends.
        p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("The confusion matrix appears after a classification run."));
        return;
    }
    const QFontMetrics fm(font());
    const auto [nameWidth, top, left, side] = geometry();

    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRect(left, 0, side * n, fm.height()), Qt::AlignCenter, tr("predicted class →"));
    p.save();
    p.translate(fm.height(), top + side * n / 2);
    p.rotate(-90);
    p.drawText(QRect(-side * n / 2, -fm.height(), side * n, fm.height()), Qt::AlignCenter, tr("true class →"));
    p.restore();

    for (int r = 0; r < n; ++r) {
        const QString name = r < names_.size() ? names_[r] : QString::number(r);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(fm.height() + 2, top + r * side, nameWidth - 4, side), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(name, Qt::ElideRight, nameWidth - 4));
        for (int c = 0; c < n; ++c) {
            const QRect cell = cellRect(r, c);
            p.fillRect(cell, cellColor(r, c));
            const QString v = QString::number(count(r, c));
            if (side >= fm.height() + 2 && fm.horizontalAdvance(v) < side - 2) {
                p.setPen(countColor(r, c));
                p.drawText(cell, Qt::AlignCenter, v);
            }
        }
    }
    // Column headers: class indices (names would not fit above narrow cells).
    p.setPen(palette().color(QPalette::Text));
    for (int c = 0; c < n; ++c)
        p.drawText(QRect(left + c * side, fm.height() + 2, side, fm.height()), Qt::AlignCenter,
                   fm.elidedText(c < names_.size() ? names_[c] : QString::number(c), Qt::ElideRight, side));
}

}  // namespace skynnet::ui
