#pragma once
// The Data page's view of image data (image folders, IDX files): one row per class with its name
// and sample count, followed by the first few of its images drawn as thumbnails (reconstruction
// data, which has no classes: rows of the first samples). Painted from the
// loaded rows, so it shows what the network will be given (size, channels), not the files.
#include <QImage>
#include <QWidget>
#include <memory>
#include <vector>

namespace skynnet {
struct Dataset;
}

namespace skynnet::ui {

// Row `row` of image data (1 channel: gray, 3: RGB) stretched to its own value range; a null
// image for data whose rows are not images.
QImage sampleImage(const Dataset& data, int row);

class SampleGrid : public QWidget {
    Q_OBJECT
public:
    static constexpr int perClass = 8;       // thumbnails in a class's row
    static constexpr int thumbSize = 56;     // pixels on screen of each thumbnail's longer side
    static constexpr int classlessRows = 4;  // rows of samples for data without classes

    explicit SampleGrid(QWidget* parent = nullptr);
    // Null, or data that is not images: nothing to show (isEmpty()).
    void setDataset(std::shared_ptr<const Dataset> data);
    bool isEmpty() const { return rows_.empty(); }

    // What is drawn, for tests: the classes' rows and each row's sample indices.
    struct ClassRow {
        QString name;
        int count = 0;  // the class's samples; -1 for a row of data without classes
        std::vector<int> samples;
    };
    const std::vector<ClassRow>& classRows() const { return rows_; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<ClassRow> rows_;
    std::vector<std::vector<QImage>> thumbs_;  // per row, per sample, already scaled
    int labelWidth_ = 160;
};

}  // namespace skynnet::ui
