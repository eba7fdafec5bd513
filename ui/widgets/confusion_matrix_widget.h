#pragma once
// The confusion matrix as a heat map: one painted cell per (true, predicted) pair, shaded by the
// share of its true class (so rare classes are as readable as common ones), counts written in.
// The shading starts from the palette's base colour, so the map follows a dark theme too, and each
// count is written in black or white, whichever reads better on its cell.
//
// Nothing is dropped or cut: every count has a cell wide enough for it (the counts' font shrinks a
// little before the cells do, then the widget asks for more room, so a scroll area around it
// scrolls), the class names above the columns turn upright when they are wider than a cell, and
// only a name longer than about 24 characters is shortened, whole in the tooltip. Every cell's
// tooltip says its classes and count in words.
#include <QColor>
#include <QFont>
#include <QRect>
#include <QStringList>
#include <QWidget>
#include <vector>

namespace skynnet::ui {

class ConfusionMatrixWidget : public QWidget {
    Q_OBJECT
public:
    explicit ConfusionMatrixWidget(QWidget* parent = nullptr);

    // confusion[true][predicted]; an empty matrix shows a placeholder.
    void setMatrix(const std::vector<std::vector<long>>& confusion, const QStringList& classNames);
    int classCount() const { return int(matrix_.size()); }
    long count(int trueClass, int predicted) const { return matrix_[std::size_t(trueClass)][std::size_t(predicted)]; }

    // How a cell is painted at the widget's current size and palette (for tests and paintEvent
    // alike): where, its fill, and the colour of the count written on it.
    QRect cellRect(int trueClass, int predicted) const;
    QColor cellColor(int trueClass, int predicted) const;
    QColor countColor(int trueClass, int predicted) const;

    // Every text the widget paints at its current size: the whole text, what is shown of it, the
    // font and the box it is drawn in. A turned text runs upwards, along its box's height.
    struct Text {
        QString whole, shown;
        QFont font;
        QRect box;
        bool turned = false;
    };
    QList<Text> texts() const;
    bool columnNamesTurned() const { return layout().turned; }
    // The tooltip at a point: a cell's classes and count, or a class name in full.
    QString toolTipAt(const QPoint& at) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Layout {
        int nameWidth = 0;     // the row names' column
        int headerHeight = 0;  // the column names' row
        int left = 0, top = 0, side = 0;
        bool turned = false;  // column names upright
        QFont countFont;
    };
    // The layout at a size (the widget's own, or the least one).
    Layout layoutFor(int width, int height) const;
    Layout layout() const { return layoutFor(width(), height()); }
    double rowShare(int trueClass, int predicted) const;
    QString name(int index) const;
    QString shownName(int index) const;  // at most about 24 characters

    std::vector<std::vector<long>> matrix_;
    QStringList names_;
};

}  // namespace skynnet::ui
