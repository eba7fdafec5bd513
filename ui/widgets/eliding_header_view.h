#pragma once
// A table header that ends a name too long for its section in "…" (its tooltip has the whole
// name): the style draws a centred name cut at both ends ("lcalinity_of_as"), and in Qt 6.4
// setTextElideMode() does not reach the header's painting.
#include <QHeaderView>

namespace skynnet::ui {

class ElidingHeaderView : public QHeaderView {
    Q_OBJECT
public:
    explicit ElidingHeaderView(Qt::Orientation orientation, QWidget* parent = nullptr);

    // The text a section of this width shows for `text` in `font` (what paintSection draws).
    QString shownText(const QString& text, const QFont& font, int sectionWidth, bool withIcon) const;

protected:
    void paintSection(QPainter* painter, const QRect& rect, int logicalIndex) const override;
};

}  // namespace skynnet::ui
