#pragma once
// The Results page's view of an autoencoder on image data: a few test inputs in the top row and,
// below them, each model's reconstructions of the same inputs (the combined model, each submodel,
// the baseline); in a narrow pane the same turned, one column per model. A row holds the network's values (the scaled
// inputs and outputs), drawn on one gray scale: [0, 1] for inputs in it, else the inputs' range. Under output split a
// submodel produces only some output columns: its other pixels are drawn transparent over a hatched background, visibly
// blank. Painting only: the caller computes the rows.
#include <QImage>
#include <QRect>
#include <QString>
#include <QWidget>
#include <utility>
#include <vector>

#include "core/tensor.h"

namespace skynnet::ui {

class ReconstructionGrid : public QWidget {
    Q_OBJECT
public:
    static constexpr int maxSamples = 8;

    struct Row {
        QString name;   // "input", "combined", "sub 1", ...
        Matrix values;  // one row per sample, every output column; no rows: still being computed
        // The column ranges [first, second) the row's model produces; empty: every column.
        std::vector<std::pair<int, int>> produced;
    };

    explicit ReconstructionGrid(QWidget* parent = nullptr);

    // Row 0 is the inputs, whose sample count and range every other row follows. Values beyond
    // maxSamples rows are not drawn.
    void setRows(const Shape& image, std::vector<Row> rows);
    void setRowValues(int row, Matrix values);  // a row computed later
    void clear();
    const std::vector<Row>& rows() const { return rows_; }
    int sampleCount() const;

    // What paintEvent draws, for tests: the picture of one cell at the image's own size
    // (transparent where the row's model does not produce the pixel; null while the row is still
    // being computed), and where it is drawn at the widget's current size.
    QImage cellImage(int row, int sample) const;
    QRect cellRect(int row, int sample) const;
    // One row per model (names on the left), or in a narrow pane one column per model (names
    // above, written upwards): whichever gives the larger pictures at the current size.
    bool modelsAsColumns() const;
    // The gray level (0..255) a value is drawn with.
    int grayLevel(float value) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Geometry {
        int nameWidth;  // the names' room: on the left of rows, or above columns
        bool modelsAsColumns;
        int cellWidth, cellHeight;
    };
    Geometry geometry() const;
    bool produces(const Row& row, int column) const;

    Shape image_;
    std::vector<Row> rows_;
    float low_ = 0, high_ = 1;  // the gray scale's ends
};

}  // namespace skynnet::ui
