#include "ui/widgets/eliding_header_view.h"

#include <QPainter>
#include <QStyleOptionHeaderV2>
#include <algorithm>

namespace skynnet::ui {

ElidingHeaderView::ElidingHeaderView(Qt::Orientation orientation, QWidget* parent) : QHeaderView(orientation, parent) {
    setTextElideMode(Qt::ElideRight);
}

QString ElidingHeaderView::shownText(const QString& text, const QFont& font, int sectionWidth, bool withIcon) const {
    const int margin = style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, this);
    int room = sectionWidth - 2 * margin;
    if (withIcon) room -= style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this) + margin;
    return QFontMetrics(font).elidedText(text, Qt::ElideRight, std::max(0, room));
}

void ElidingHeaderView::paintSection(QPainter* painter, const QRect& rect, int logicalIndex) const {
    if (!rect.isValid()) return;
    QStyleOptionHeaderV2 opt;
    initStyleOption(&opt);
    initStyleOptionForIndex(&opt, logicalIndex);
    opt.rect = rect;
    // The section's own font (the model's FontRole), as QHeaderView::paintSection uses it.
    const QVariant font = model() ? model()->headerData(logicalIndex, orientation(), Qt::FontRole) : QVariant();
    if (font.isValid() && font.canConvert<QFont>()) painter->setFont(qvariant_cast<QFont>(font));
    opt.fontMetrics = QFontMetrics(painter->font());
    opt.text = shownText(opt.text, painter->font(), rect.width(), !opt.icon.isNull());
    style()->drawControl(QStyle::CE_Header, &opt, painter, this);
}

}  // namespace skynnet::ui
