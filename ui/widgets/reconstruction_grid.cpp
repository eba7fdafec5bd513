#include "ui/widgets/reconstruction_grid.h"

#include <QPaintEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace skynnet::ui {
namespace {

constexpr int gap = 4, margin = 4;
constexpr int leastCell = 20, largestCell = 96;  // pixels on screen of a cell's longer side

}  // namespace

ReconstructionGrid::ReconstructionGrid(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("reconstructionGrid"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ReconstructionGrid::setRows(const Shape& image, std::vector<Row> rows) {
    image_ = image;
    rows_ = std::move(rows);
    low_ = 0;
    high_ = 1;
    if (!rows_.empty() && rows_[0].values.size() > 0) {
        const Matrix shown = rows_[0].values.topRows(sampleCount());
        low_ = std::min(low_, shown.minCoeff());
        high_ = std::max(high_, shown.maxCoeff());
    }
    updateGeometry();
    update();
}

void ReconstructionGrid::setRowValues(int row, Matrix values) {
    if (row < 0 || row >= int(rows_.size())) return;
    rows_[std::size_t(row)].values = std::move(values);
    update();
}

void ReconstructionGrid::clear() { setRows(Shape{}, {}); }

int ReconstructionGrid::sampleCount() const {
    return rows_.empty() ? 0 : int(std::min<Index>(rows_[0].values.rows(), maxSamples));
}

int ReconstructionGrid::grayLevel(float value) const {
    const float t = high_ > low_ ? (value - low_) / (high_ - low_) : 0.0f;
    return std::clamp(int(std::lround(255.0f * t)), 0, 255);
}

bool ReconstructionGrid::produces(const Row& row, int column) const {
    if (row.produced.empty()) return true;
    return std::any_of(row.produced.begin(), row.produced.end(),
                       [column](const std::pair<int, int>& r) { return column >= r.first && column < r.second; });
}

QImage ReconstructionGrid::cellImage(int row, int sample) const {
    if (row < 0 || row >= int(rows_.size()) || sample < 0 || sample >= sampleCount()) return {};
    const Row& r = rows_[std::size_t(row)];
    if (r.values.rows() <= sample || r.values.cols() != image_.size()) return {};
    const Index plane = Index(image_.height) * image_.width;
    QImage picture(image_.width, image_.height, QImage::Format_ARGB32);
    for (int y = 0; y < image_.height; ++y) {
        auto* line = reinterpret_cast<QRgb*>(picture.scanLine(y));
        for (int x = 0; x < image_.width; ++x) {
            int level[3] = {0, 0, 0};
            bool any = false;
            for (int c = 0; c < image_.channels && c < 3; ++c) {
                const Index column = c * plane + Index(y) * image_.width + x;
                if (!produces(r, int(column))) continue;
                any = true;
                level[c] = grayLevel(r.values(sample, column));
            }
            if (image_.channels == 1) level[1] = level[2] = level[0];
            line[x] = any ? qRgb(level[0], level[1], level[2]) : qRgba(0, 0, 0, 0);
        }
    }
    return picture;
}

ReconstructionGrid::Geometry ReconstructionGrid::geometry() const {
    int names = 0;
    for (const Row& r : rows_) names = std::max(names, fontMetrics().horizontalAdvance(r.name));
    names += 2 * margin;
    const int samples = std::max(1, sampleCount()), models = std::max<int>(1, int(rows_.size()));
    const double aspect = double(std::max(1, image_.width)) / std::max(1, image_.height);
    // The largest cells, the image's aspect kept, that fit `across` cells in `w` and `down` in `h`.
    const auto fit = [&](int w, int h, int across, int down) {
        return std::min((w - across * gap) / across, int(((h - down * gap) / down) * aspect));
    };
    // One row per model with its name on the left, or in a narrow pane one column per model with
    // its name written upwards above it: whichever gives the larger pictures.
    const int byRows = fit(width() - names - margin, height() - 2 * margin, samples, models);
    const int byColumns = fit(width() - 2 * margin, height() - names - margin, models, samples);
    Geometry g{names, byColumns > byRows, leastCell, leastCell};
    g.cellWidth = std::clamp(std::max(byRows, byColumns), leastCell, largestCell);
    g.cellHeight = std::max(1, int(g.cellWidth / aspect));
    return g;
}

QRect ReconstructionGrid::cellRect(int row, int sample) const {
    const Geometry g = geometry();
    const int across = g.modelsAsColumns ? row : sample, down = g.modelsAsColumns ? sample : row;
    const int left = g.modelsAsColumns ? margin : g.nameWidth, top = g.modelsAsColumns ? g.nameWidth : margin;
    return {left + across * (g.cellWidth + gap), top + down * (g.cellHeight + gap), g.cellWidth, g.cellHeight};
}

bool ReconstructionGrid::modelsAsColumns() const { return geometry().modelsAsColumns; }

// Modest hints, and none while empty: the grid shares a stack with the Errors box's other views,
// whose least width is the stack's, and draws whatever room it is given.
QSize ReconstructionGrid::sizeHint() const { return rows_.empty() ? QSize(0, 0) : QSize(360, 320); }

QSize ReconstructionGrid::minimumSizeHint() const { return rows_.empty() ? QSize(0, 0) : QSize(160, 120); }

void ReconstructionGrid::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const Geometry g = geometry();
    // Pixels a submodel does not produce show this through: blank, and unlike any gray.
    const QBrush blank(palette().mid().color(), Qt::BDiagPattern);
    p.setPen(palette().text().color());
    for (int row = 0; row < int(rows_.size()); ++row) {
        const QRect first = cellRect(row, 0);
        const QString& name = rows_[std::size_t(row)].name;
        if (!g.modelsAsColumns) {
            p.drawText(QRect(margin, first.top(), g.nameWidth - margin, first.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, name);
        } else {  // written upwards, ending just above its column
            p.save();
            p.translate(first.left(), first.top() - margin);
            p.rotate(-90);
            p.drawText(QRect(0, 0, g.nameWidth - margin, first.width()), Qt::AlignLeft | Qt::AlignVCenter, name);
            p.restore();
        }
        for (int s = 0; s < sampleCount(); ++s) {
            const QRect cell = cellRect(row, s);
            const QImage picture = cellImage(row, s);
            if (picture.isNull()) {  // still being computed
                p.fillRect(cell, palette().alternateBase());
                continue;
            }
            p.fillRect(cell, blank);
            p.drawImage(cell, picture);  // pixels stay sharp when enlarged (no smoothing hint)
        }
    }
}

}  // namespace skynnet::ui
