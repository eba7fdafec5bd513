#include "ui/widgets/confusion_matrix_widget.h"

#include <QEvent>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "ui/widgets/theme.h"

namespace skynnet::ui {
namespace {

// Correct predictions in blue, confusions in red (the charts' submodel 1 and 4 colours).
const QColor correctHue(31, 119, 180), confusedHue(214, 39, 40);

constexpr int pad = 4;
// The counts' font may shrink to this share of the widget's before the cells stop shrinking.
constexpr double countFontSteps[] = {1.0, 0.9, 0.8, 0.75};
// Longer class names are shortened in the picture (whole in the tooltip): in characters.
constexpr int longestName = 24;

QString predictedTitle() { return ConfusionMatrixWidget::tr("predicted class →"); }
QString trueTitle() { return ConfusionMatrixWidget::tr("true class →"); }

QFont scaled(const QFont& font, double factor) {
    QFont f = font;
    if (factor == 1.0) return f;
    if (f.pointSizeF() > 0) f.setPointSizeF(f.pointSizeF() * factor);
    else f.setPixelSize(std::max(6, int(std::lround(f.pixelSize() * factor))));
    return f;
}

}  // namespace

ConfusionMatrixWidget::ConfusionMatrixWidget(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ConfusionMatrixWidget::setMatrix(const std::vector<std::vector<long>>& confusion, const QStringList& classNames) {
    matrix_ = confusion;
    names_ = classNames;
    updateGeometry();  // more classes or longer counts may need more room
    update();
}

QString ConfusionMatrixWidget::name(int i) const { return i < names_.size() ? names_[i] : QString::number(i); }

QString ConfusionMatrixWidget::shownName(int i) const {
    const QFontMetrics fm(font());
    return fm.elidedText(name(i), Qt::ElideRight, fm.horizontalAdvance(QLatin1Char('x')) * longestName);
}

ConfusionMatrixWidget::Layout ConfusionMatrixWidget::layoutFor(int width, int height) const {
    const QFontMetrics fm(font());
    const int n = std::max(1, classCount()), line = fm.height();
    int names = 0;
    for (int i = 0; i < classCount(); ++i) names = std::max(names, fm.horizontalAdvance(shownName(i)));
    Layout l;
    l.nameWidth = names + 2 * pad;
    l.left = line + pad + l.nameWidth;  // the turned "true class →", then the names
    const int title = line + pad;
    // The least side of a cell whose count is written in font f.
    QString widest;
    for (const auto& row : matrix_)
        for (long v : row)
            if (QString::number(v).size() > widest.size()) widest = QString::number(v);
    const auto need = [&](const QFont& f) {
        const QFontMetrics m(f);
        return std::max(m.horizontalAdvance(widest) + pad + 2, line + 2);
    };
    // The cells as large as the room allows below a header this tall, and the counts' font: the
    // widget's, or a little smaller when the cells would be too small for it. Never smaller cells
    // than their counts need: minimumSizeHint asks for that room.
    const auto fit = [&](int header) {
        l.headerHeight = header;
        l.top = title + header;
        l.side = std::min((width - l.left - pad) / n, (height - l.top - pad) / n);
        for (const double step : countFontSteps) {
            l.countFont = scaled(font(), step);
            if (need(l.countFont) <= l.side) return;
        }
        l.side = need(l.countFont);
    };
    // Names above the columns read across while each fits its cell, else upwards.
    fit(line + pad);
    if (names + pad > l.side) {
        l.turned = true;
        fit(names + 2 * pad);
    }
    return l;
}

QSize ConfusionMatrixWidget::minimumSizeHint() const {
    if (matrix_.empty()) return {200, 160};
    const QFontMetrics fm(font());
    const int n = classCount();
    const Layout least = layoutFor(0, 0);  // every size too small: the least side and its header
    const int width = least.left + std::max(n * least.side, fm.horizontalAdvance(predictedTitle())) + pad;
    const int height = least.top + std::max(n * least.side, fm.horizontalAdvance(trueTitle())) + pad;
    return {width, height};
}

QSize ConfusionMatrixWidget::sizeHint() const { return minimumSizeHint().expandedTo(QSize(420, 360)); }

QRect ConfusionMatrixWidget::cellRect(int r, int c) const {
    const Layout l = layout();
    return QRect(l.left + c * l.side, l.top + r * l.side, l.side - 1, l.side - 1);
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

QList<ConfusionMatrixWidget::Text> ConfusionMatrixWidget::texts() const {
    QList<Text> all;
    const int n = classCount();
    if (n == 0) return all;
    const Layout l = layout();
    const QFontMetrics fm(font());
    const int line = fm.height(), span = n * l.side;
    const QString across = predictedTitle(), up = trueTitle();
    all.push_back(
        {across, across, font(), QRect(l.left, 0, std::max(span, fm.horizontalAdvance(across)), line), false});
    all.push_back({up, up, font(), QRect(0, l.top, line, std::max(span, fm.horizontalAdvance(up))), true});
    for (int i = 0; i < n; ++i) {
        const QString whole = name(i), shown = shownName(i);
        all.push_back({whole, shown, font(), QRect(line + pad, l.top + i * l.side, l.nameWidth - pad, l.side), false});
        const QRect column(l.left + i * l.side, line + pad, l.side, l.headerHeight - pad);
        all.push_back({whole, shown, font(), column, l.turned});
    }
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            const QString v = QString::number(count(r, c));
            all.push_back({v, v, l.countFont, cellRect(r, c), false});
        }
    return all;
}

QString ConfusionMatrixWidget::toolTipAt(const QPoint& at) const {
    const int n = classCount();
    if (n == 0) return {};
    const Layout l = layout();
    const int c = (at.x() - l.left) / l.side, r = (at.y() - l.top) / l.side;
    const bool inColumns = at.x() >= l.left && c < n, inRows = at.y() >= l.top && r < n;
    if (inColumns && inRows) {
        long total = 0;
        for (long v : matrix_[std::size_t(r)]) total += v;
        return tr("True class %1, predicted %2: %3 of its %4 samples (%5%)")
            .arg(name(r), name(c))
            .arg(count(r, c))
            .arg(total)
            .arg(QString::number(100.0 * rowShare(r, c), 'f', 1));
    }
    if (inColumns && at.y() < l.top) return tr("Predicted %1").arg(name(c));
    if (inRows && at.x() < l.left) return tr("True class %1").arg(name(r));
    return {};
}

bool ConfusionMatrixWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = toolTipAt(help->pos());
        if (tip.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}

void ConfusionMatrixWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const int n = classCount();
    if (n == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        // Wrapped: a narrow pane (1024 x 680) cut the one line at both ends.
        p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("The confusion matrix appears after a classification run."));
        return;
    }
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) p.fillRect(cellRect(r, c), cellColor(r, c));
    const int cells = 2 + 2 * n;  // texts(): two titles and two names per class, then the counts
    const QList<Text> all = texts();
    for (int i = 0; i < all.size(); ++i) {
        const Text& t = all[i];
        p.setFont(t.font);
        if (i >= cells) {
            const int cell = i - cells;
            p.setPen(countColor(cell / n, cell % n));
            p.drawText(t.box, Qt::AlignCenter, t.shown);
            continue;
        }
        p.setPen(palette().color(QPalette::Text));
        if (!t.turned) {
            // Row names right-aligned against their row; the title and names above centred.
            const bool rowName = i >= 2 && (i - 2) % 2 == 0;
            p.drawText(t.box, (rowName ? Qt::AlignRight : Qt::AlignHCenter) | Qt::AlignVCenter, t.shown);
            continue;
        }
        // Upwards: the box's bottom left is the text's start; a name starts next to its column.
        p.save();
        p.translate(t.box.left(), t.box.bottom() + 1);
        p.rotate(-90);
        const Qt::Alignment along = i == 1 ? Qt::AlignHCenter : Qt::AlignLeft;
        p.drawText(QRect(0, 0, t.box.height(), t.box.width()), along | Qt::AlignVCenter, t.shown);
        p.restore();
    }
}

}  // namespace skynnet::ui
