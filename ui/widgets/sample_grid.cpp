#include "ui/widgets/sample_grid.h"

#include <QPaintEvent>
#include <QPainter>

#include "data/dataset.h"

namespace skynnet::ui {
namespace {

constexpr int rowGap = 6, thumbGap = 4, margin = 6;

bool isImageData(const Dataset& d) {
    const Shape s = d.sampleShape;
    return s.height >= 2 && s.width >= 2 && (s.channels == 1 || s.channels == 3) && d.features.cols() == s.size() &&
           d.task != Task::Regression;
}

}  // namespace

QImage sampleImage(const Dataset& data, int row) {
    const Shape s = data.sampleShape;
    if (s.height < 2 || s.width < 2 || (s.channels != 1 && s.channels != 3) || row < 0 || row >= data.size() ||
        data.features.cols() != s.size())
        return {};
    const auto pixels = data.features.row(row);
    const float lo = pixels.minCoeff(), hi = pixels.maxCoeff();
    const auto level = [&](Index i) { return hi > lo ? int(255.0f * (pixels(i) - lo) / (hi - lo) + 0.5f) : 0; };
    const Index plane = Index(s.height) * s.width;
    QImage image(s.width, s.height, s.channels == 1 ? QImage::Format_Grayscale8 : QImage::Format_RGB32);
    for (int y = 0; y < s.height; ++y) {
        uchar* line = image.scanLine(y);
        for (int x = 0; x < s.width; ++x) {
            const Index i = Index(y) * s.width + x;
            if (s.channels == 1) line[x] = uchar(level(i));
            else reinterpret_cast<QRgb*>(line)[x] = qRgb(level(i), level(plane + i), level(2 * plane + i));
        }
    }
    return image;
}

SampleGrid::SampleGrid(QWidget* parent) : QWidget(parent) { setObjectName(QStringLiteral("sampleGrid")); }

void SampleGrid::setDataset(std::shared_ptr<const Dataset> data) {
    rows_.clear();
    thumbs_.clear();
    if (data && isImageData(*data)) {
        if (data->task == Task::Reconstruction) {  // no classes: rows of the first samples
            for (int first = 0; first < classlessRows * perClass && first < data->size(); first += perClass) {
                ClassRow row;
                row.count = -1;
                for (int r = first; r < first + perClass && r < data->size(); ++r) row.samples.push_back(r);
                row.name = tr("Samples %1–%2").arg(first + 1).arg(row.samples.back() + 1);
                rows_.push_back(std::move(row));
            }
        } else {
            rows_.resize(std::size_t(data->classCount()));
            for (int k = 0; k < data->classCount(); ++k)
                rows_[std::size_t(k)].name = QString::fromStdString(data->classNames[std::size_t(k)]);
        }
        for (std::size_t r = 0; data->task != Task::Reconstruction && r < data->labels.size(); ++r) {
            ClassRow& row = rows_[std::size_t(data->labels[r])];
            ++row.count;
            if (int(row.samples.size()) < perClass) row.samples.push_back(int(r));
        }
        const Shape s = data->sampleShape;
        // Small images keep their pixels sharp; large ones are smoothed down.
        const bool enlarge = std::max(s.height, s.width) <= thumbSize;
        for (const ClassRow& row : rows_) {
            std::vector<QImage> images;
            for (int r : row.samples)
                images.push_back(
                    sampleImage(*data, r).scaled(thumbSize, thumbSize, Qt::KeepAspectRatio,
                                                 enlarge ? Qt::FastTransformation : Qt::SmoothTransformation));
            thumbs_.push_back(std::move(images));
        }
        labelWidth_ = 0;
        for (const ClassRow& row : rows_)
            labelWidth_ = std::max(labelWidth_,
                                   fontMetrics().horizontalAdvance(row.name + QStringLiteral("  (00000)")));
        labelWidth_ = std::min(labelWidth_ + 2 * margin, 220);
    }
    updateGeometry();
    update();
}

QSize SampleGrid::sizeHint() const {
    if (rows_.empty()) return {0, 0};
    return {labelWidth_ + perClass * (thumbSize + thumbGap) + 2 * margin,
            int(rows_.size()) * (thumbSize + rowGap) + 2 * margin};
}

void SampleGrid::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    for (std::size_t k = 0; k < rows_.size(); ++k) {
        const int top = margin + int(k) * (thumbSize + rowGap);
        const QRect label(margin, top, labelWidth_ - margin, thumbSize);
        p.setPen(palette().text().color());
        p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
                   rows_[k].count < 0 ? rows_[k].name : tr("%1\n%2 samples").arg(rows_[k].name).arg(rows_[k].count));
        for (std::size_t i = 0; i < thumbs_[k].size(); ++i) {
            const QImage& t = thumbs_[k][i];
            const int left = labelWidth_ + int(i) * (thumbSize + thumbGap);
            p.drawImage(left + (thumbSize - t.width()) / 2, top + (thumbSize - t.height()) / 2, t);
        }
        if (rows_[k].samples.empty()) {
            p.setPen(palette().placeholderText().color());
            p.drawText(QRect(labelWidth_, top, perClass * thumbSize, thumbSize), Qt::AlignLeft | Qt::AlignVCenter,
                       tr("no images"));
        }
    }
}

}  // namespace skynnet::ui
