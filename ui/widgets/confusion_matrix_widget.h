#pragma once
// The confusion matrix as a heat map: one painted cell per (true, predicted) pair, shaded by the
// share of its true class (so rare classes are as readable as common ones), counts written in.
// The shading starts from the palette's base colour, so the map follows a dark theme too, and each
// count is written in black or white, whichever reads better on its cell.
#include <QColor>
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

    QSize sizeHint() const override { return {420, 360}; }
    QSize minimumSizeHint() const override { return {200, 160}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Geometry {
        int nameWidth, top, left, side;
    };
    Geometry geometry() const;
    double rowShare(int trueClass, int predicted) const;

    std::vector<std::vector<long>> matrix_;
    QStringList names_;
};

}  // namespace skynnet::ui
