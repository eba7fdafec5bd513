#include "ui/widgets/dataset_views.h"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <algorithm>

#include "data/dataset.h"
#include "ui/widgets/chart_util.h"
#include "ui/widgets/sample_grid.h"

namespace skynnet::ui {

namespace {

// A histogram of `values` in `bins` bins over their range, each named by its middle.
void showHistogram(BarChart* chart, const Eigen::Ref<const Eigen::ArrayXf>& values, const QString& name,
                   const QString& title, int bins = 12, int digits = 2) {
    const double lo = values.minCoeff(), hi = values.maxCoeff();
    std::vector<double> counts(bins, 0.0);
    for (Index r = 0; r < values.size(); ++r) {
        const int b = hi > lo ? std::min(bins - 1, int((values(r) - lo) / (hi - lo) * bins)) : 0;
        counts[std::size_t(b)] += 1;
    }
    QStringList categories;
    for (int b = 0; b < bins; ++b) categories << QString::number(lo + (hi - lo) * (b + 0.5) / bins, 'g', digits);
    chart->setTitle(title);
    chart->setData(categories, {{name, counts, submodelColor(0)}}, QObject::tr("samples"));
}

}  // namespace

void showDistribution(BarChart* chart, const Dataset* data) {
    if (!data) {
        chart->setPlaceholder(QObject::tr("no data"));
        return;
    }
    // Value bins read along x (their numbers were elided down the side); class names down the side.
    chart->setHorizontal(data->task != Task::Reconstruction);
    if (data->task == Task::Reconstruction) {
        // No classes: the inputs are the targets. The first rows show their spread, and quickly;
        // row-major, they are one run of values.
        const Index rows = std::min<Index>(data->features.rows(), 2000);
        const Eigen::Map<const Eigen::ArrayXf> values(data->features.data(), rows * data->features.cols());
        // Fewer bins than a target's: pixel values such as 106 keep their digits and fit.
        showHistogram(chart, values, QObject::tr("values"), QObject::tr("Input values (the targets)"), 6, 3);
        return;
    }
    if (data->task != Task::Regression) {
        QStringList categories;
        std::vector<double> counts(std::size_t(data->classCount()), 0.0);
        for (int label : data->labels)
            if (label >= 0 && label < data->classCount()) counts[std::size_t(label)] += 1;
        for (const std::string& name : data->classNames) categories << QString::fromStdString(name);
        chart->setTitle(QObject::tr("Class distribution"));
        chart->setData(categories, {{QObject::tr("samples"), counts, submodelColor(0)}}, QObject::tr("samples"));
        return;
    }
    const QString name = data->targetNames.empty() ? QObject::tr("target")
                                                   : QString::fromStdString(data->targetNames[0]);
    showHistogram(chart, data->targets.col(0).array(), name, QObject::tr("Distribution of %1").arg(name));
}

QPixmap samplePixmap(const Dataset& data, int row, int zoom) {
    const QImage image = sampleImage(data, row);
    return image.isNull() ? QPixmap() : QPixmap::fromImage(image.scaled(image.width() * zoom, image.height() * zoom));
}

QStringList csvColumns(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return {};
    QString line = QString::fromUtf8(f.readLine()).trimmed();
    if (line.startsWith(QChar(0xFEFF))) line.remove(0, 1);
    QChar best = QLatin1Char(',');
    int bestCount = -1;
    for (QChar d : {QLatin1Char(','), QLatin1Char(';'), QLatin1Char('\t'), QLatin1Char('|')}) {
        const int n = int(line.count(d));
        if (n > bestCount) {
            best = d;
            bestCount = n;
        }
    }
    QStringList fields = line.split(best);
    bool numeric = true;
    for (QString& s : fields) {
        s = s.trimmed();
        if (s.size() >= 2 && s.startsWith(QLatin1Char('"')) && s.endsWith(QLatin1Char('"'))) s = s.mid(1, s.size() - 2);
        bool ok = false;
        s.toDouble(&ok);
        numeric = numeric && ok;
    }
    if (numeric)
        for (int i = 0; i < fields.size(); ++i) fields[i] = QStringLiteral("column_%1").arg(i + 1);
    return fields;
}

bool isCsvPath(const QString& path) {
    if (path.startsWith(QLatin1String("builtin:")) || QFileInfo(path).isDir()) return false;
    const QString name = QFileInfo(path).fileName().toLower();
    return !name.contains(QLatin1String("idx")) && !name.contains(QLatin1String("ubyte")) &&
           !name.endsWith(QLatin1String(".gz"));
}

QString dataDisplayName(const QString& path) {
    return path.startsWith(QLatin1String("builtin:")) ? path : QFileInfo(path).fileName();
}

}  // namespace skynnet::ui
