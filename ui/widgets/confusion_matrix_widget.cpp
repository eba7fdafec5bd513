#include "ui/widgets/confusion_matrix_widget.h"

#include <QFontMetrics>
#include <QPainter>
#include <algorithm>

namespace skynnet::ui {

ConfusionMatrixWidget::ConfusionMatrixWidget(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ConfusionMatrixWidget::setMatrix(const std::vector<std::vector<long>>& confusion, const QStringList& classNames) {
    matrix_ = confusion;
    names_ = classNames;
    update();
}

void ConfusionMatrixWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const int n = int(matrix_.size());
    if (n == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("The confusion matrix appears after a classification run."));
        return;
    }
    const QFontMetrics fm(font());
    // Room for the class names on the left and the axis titles; names longer than that are elided.
    int nameWidth = 0;
    for (const QString& s : names_) nameWidth = std::max(nameWidth, fm.horizontalAdvance(s));
    nameWidth = std::min(nameWidth + 8, width() / 4);
    const int top = fm.height() * 2 + 4, left = nameWidth + fm.height() + 4;
    const int side = std::max(4, std::min((width() - left - 4) / n, (height() - top - 4) / n));

    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRect(left, 0, side * n, fm.height()), Qt::AlignCenter, tr("predicted class →"));
    p.save();
    p.translate(fm.height(), top + side * n / 2);
    p.rotate(-90);
    p.drawText(QRect(-side * n / 2, -fm.height(), side * n, fm.height()), Qt::AlignCenter, tr("true class →"));
    p.restore();

    for (int r = 0; r < n; ++r) {
        long rowTotal = 0;
        for (long v : matrix_[std::size_t(r)]) rowTotal += v;
        const QString name = r < names_.size() ? names_[r] : QString::number(r);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(fm.height() + 2, top + r * side, nameWidth - 4, side), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(name, Qt::ElideRight, nameWidth - 4));
        for (int c = 0; c < n; ++c) {
            const long v = matrix_[std::size_t(r)][std::size_t(c)];
            const double share = rowTotal > 0 ? double(v) / double(rowTotal) : 0.0;
            // Correct predictions in blue, confusions in red, both by the row share.
            const QColor hue = r == c ? QColor(31, 119, 180) : QColor(214, 39, 40);
            QColor fill = hue;
            fill.setAlphaF(float(0.06 + 0.94 * share));
            const QRect cell(left + c * side, top + r * side, side - 1, side - 1);
            p.fillRect(cell, Qt::white);
            p.fillRect(cell, fill);
            if (side >= fm.height() + 2 && fm.horizontalAdvance(QString::number(v)) < side - 2) {
                p.setPen(share > 0.55 ? Qt::white : Qt::black);
                p.drawText(cell, Qt::AlignCenter, QString::number(v));
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
