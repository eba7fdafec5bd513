#include "ui/widgets/eliding_header_view.h"

#include <QHelpEvent>
#include <QPainter>
#include <QStyleOptionHeaderV2>
#include <QToolTip>
#include <algorithm>

namespace skynnet::ui {

ElidingHeaderView::ElidingHeaderView(Qt::Orientation orientation, QWidget* parent) : QHeaderView(orientation, parent) {
    setTextElideMode(Qt::ElideRight);
}

int ElidingHeaderView::textRoom(int sectionWidth, bool withIcon) const {
    const int margin = style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, this);
    int room = sectionWidth - 2 * margin;
    if (withIcon) room -= style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this) + margin;
    return std::max(0, room);
}

QString ElidingHeaderView::shownText(const QString& text, const QFont& font, int sectionWidth, bool withIcon) const {
    return fitted(text, font, textRoom(sectionWidth, withIcon), 1);
}

QString ElidingHeaderView::fitted(const QString& text, const QFont& font, int room, int lines) const {
    const QFontMetrics fm(font);
    if (lines < 2 || fm.horizontalAdvance(text) <= room) return fm.elidedText(text, Qt::ElideRight, room);
    // The break that leaves the longer of the two lines shortest.
    int best = -1, bestWidth = 0;
    for (int i = text.indexOf(QLatin1Char(' ')); i >= 0; i = text.indexOf(QLatin1Char(' '), i + 1)) {
        const int width = std::max(fm.horizontalAdvance(text.left(i)), fm.horizontalAdvance(text.mid(i + 1)));
        if (best < 0 || width < bestWidth) {
            best = i;
            bestWidth = width;
        }
    }
    if (best < 0) return fm.elidedText(text, Qt::ElideRight, room);
    return fm.elidedText(text.left(best), Qt::ElideRight, room) + QLatin1Char('\n') +
           fm.elidedText(text.mid(best + 1), Qt::ElideRight, room);
}

QString ElidingHeaderView::wholeText(int logicalIndex) const {
    return model() ? model()->headerData(logicalIndex, orientation(), Qt::DisplayRole).toString() : QString();
}

QFont ElidingHeaderView::sectionFont(int logicalIndex) const {
    // The section's own font (the model's FontRole), as QHeaderView::paintSection uses it.
    const QVariant font = model() ? model()->headerData(logicalIndex, orientation(), Qt::FontRole) : QVariant();
    return font.isValid() && font.canConvert<QFont>() ? qvariant_cast<QFont>(font) : this->font();
}

bool ElidingHeaderView::hasIcon(int logicalIndex) const {
    return model() && !model()->headerData(logicalIndex, orientation(), Qt::DecorationRole).isNull();
}

QString ElidingHeaderView::shownText(int logicalIndex) const {
    return fitted(wholeText(logicalIndex), sectionFont(logicalIndex),
                  textRoom(sectionSize(logicalIndex), hasIcon(logicalIndex)), lines_);
}

int ElidingHeaderView::widthFor(int logicalIndex, int lines) const {
    const QString text = wholeText(logicalIndex);
    const QFontMetrics fm(sectionFont(logicalIndex));
    int width = fm.horizontalAdvance(text);
    if (lines >= 2)  // the longer line of the best break
        for (int i = text.indexOf(QLatin1Char(' ')); i >= 0; i = text.indexOf(QLatin1Char(' '), i + 1))
            width = std::min(width,
                             std::max(fm.horizontalAdvance(text.left(i)), fm.horizontalAdvance(text.mid(i + 1))));
    const int margin = style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, this);
    const int icon = hasIcon(logicalIndex) ? style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this) + margin : 0;
    return width + 2 * margin + icon + 2;  // 2: the section's border
}

void ElidingHeaderView::setLines(int lines) {
    lines = std::clamp(lines, 1, 2);
    if (lines == lines_) return;
    lines_ = lines;
    // The cached size hint goes with the header data, and the view lays itself out again.
    headerDataChanged(orientation(), 0, std::max(0, count() - 1));
    updateGeometry();
    emit geometriesChanged();  // the table makes the header as tall as its new size hint
    viewport()->update();
}

QSize ElidingHeaderView::sectionSizeFromContents(int logicalIndex) const {
    QSize size = QHeaderView::sectionSizeFromContents(logicalIndex);
    if (lines_ > 1) size.setHeight(size.height() + QFontMetrics(sectionFont(logicalIndex)).lineSpacing());
    return size;
}

void ElidingHeaderView::paintSection(QPainter* painter, const QRect& rect, int logicalIndex) const {
    if (!rect.isValid()) return;
    QStyleOptionHeaderV2 opt;
    initStyleOption(&opt);
    initStyleOptionForIndex(&opt, logicalIndex);
    opt.rect = rect;
    painter->setFont(sectionFont(logicalIndex));
    opt.fontMetrics = QFontMetrics(painter->font());
    // The whole name fitted here (on two lines when the header has them), and the style told not
    // to shorten it again: it draws a two-line name centred like a one-line one.
    opt.text = fitted(wholeText(logicalIndex), painter->font(), textRoom(rect.width(), !opt.icon.isNull()), lines_);
    opt.textElideMode = Qt::ElideNone;
    style()->drawControl(QStyle::CE_Header, &opt, painter, this);
}

bool ElidingHeaderView::viewportEvent(QEvent* event) {
    // A name ending in "…" without a tooltip of the model's gets itself as one.
    if (event->type() == QEvent::ToolTip && model()) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const int section = logicalIndexAt(help->pos());
        if (section >= 0 && model()->headerData(section, orientation(), Qt::ToolTipRole).isNull() &&
            shownText(section).contains(QChar(0x2026))) {
            QToolTip::showText(help->globalPos(), wholeText(section), viewport());
            return true;
        }
    }
    return QHeaderView::viewportEvent(event);
}

}  // namespace skynnet::ui
