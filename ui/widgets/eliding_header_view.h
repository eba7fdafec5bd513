#pragma once
// A table header that never cuts a name silently. A name too wide for its section breaks onto a
// second line at a space when the header is two lines tall (setLines, as fitColumnsToContents
// decides), and only what still does not fit ends in "…", whole in the tooltip (the model's, or
// the name itself): the style draws a centred name cut at both ends ("lcalinity_of_as"), and in
// Qt 6.4 setTextElideMode() does not reach the header's painting.
#include <QHeaderView>

namespace skynnet::ui {

class ElidingHeaderView : public QHeaderView {
    Q_OBJECT
public:
    explicit ElidingHeaderView(Qt::Orientation orientation, QWidget* parent = nullptr);

    // The text a section of this width shows for `text` in `font` on one line (what paintSection
    // draws on a one-line header).
    QString shownText(const QString& text, const QFont& font, int sectionWidth, bool withIcon) const;
    // What section `logical` shows at its current width: its name, perhaps broken onto two lines
    // ("Peak memory\n(MB)") or ending in "…".
    QString shownText(int logicalIndex) const;
    QString wholeText(int logicalIndex) const;
    // The width a section needs to show its whole name on one line, and on at most `lines`.
    int widthFor(int logicalIndex, int lines) const;

    // How many lines of text the header is tall: 1 (the default) or 2.
    void setLines(int lines);
    int lines() const { return lines_; }

protected:
    void paintSection(QPainter* painter, const QRect& rect, int logicalIndex) const override;
    QSize sectionSizeFromContents(int logicalIndex) const override;
    bool viewportEvent(QEvent* event) override;

private:
    QFont sectionFont(int logicalIndex) const;
    bool hasIcon(int logicalIndex) const;
    int textRoom(int sectionWidth, bool withIcon) const;
    // `text` on at most `lines` lines of `room` pixels: broken at the space that leaves the
    // longer line shortest, the rest ending in "…".
    QString fitted(const QString& text, const QFont& font, int room, int lines) const;

    int lines_ = 1;
};

}  // namespace skynnet::ui
