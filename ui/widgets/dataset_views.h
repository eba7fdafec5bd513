#pragma once
// Small views of a loaded dataset for the Data page: the class distribution (or a histogram of
// the first target column), one row drawn as its image, and the column names of a CSV file.
#include <QPixmap>
#include <QString>
#include <QStringList>

namespace skynnet {
struct Dataset;
}

namespace skynnet::ui {

class BarChart;

// Classes: samples per class; regression: a 12-bin histogram of the first target column.
void showDistribution(BarChart* chart, const Dataset* data);
// Row `row` of image data (gray or RGB, sampleImage), scaled up `zoom` times; null for non-image data.
QPixmap samplePixmap(const Dataset& data, int row, int zoom);

// The names the loader will give a delimited file's columns (its header, else column_1, ...),
// for the target-column choice; the loader itself decides header and delimiter.
QStringList csvColumns(const QString& path);
bool isCsvPath(const QString& path);           // not builtin:, not IDX/gzip, not an image folder
QString dataDisplayName(const QString& path);  // file name, or the builtin: spec

}  // namespace skynnet::ui
