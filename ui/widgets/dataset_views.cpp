#include "ui/widgets/dataset_views.h"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <algorithm>

#include "data/dataset.h"
#include "ui/widgets/chart_util.h"
#include "ui/widgets/sample_grid.h"

namespace skynnet::ui {

void showDistribution(BarChart* chart, const Dataset* data) {
    if (!data) {
        chart->setPlaceholder(QObject::tr("no data"));
        return;
    }
    QStringList categories;
    std::vector<double> counts;
    if (data->task != Task::Regression) {
        counts.assign(std::size_t(data->classCount()), 0.0);
        for (int label : data->labels)
            if (label >= 0 && label < data->classCount()) counts[std::size_t(label)] += 1;
        for (const std::string& name : data->classNames) categories << QString::fromStdString(name);
        chart->setTitle(QObject::tr("Class distribution"));
        chart->setData(categories, {{QObject::tr("samples"), counts, submodelColor(0)}}, QObject::tr("samples"));
        return;
    }
    const auto column = data->targets.col(0);
    const double lo = column.minCoeff(), hi = column.maxCoeff();
    const int bins = 12;
    counts.assign(bins, 0.0);
    for (Index r = 0; r < column.size(); ++r) {
        const int b = hi > lo ? std::min(bins - 1, int((column(r) - lo) / (hi - lo) * bins)) : 0;
        counts[std::size_t(b)] += 1;
    }
    for (int b = 0; b < bins; ++b) categories << QString::number(lo + (hi - lo) * (b + 0.5) / bins, 'g', 2);
    const QString name = data->targetNames.empty() ? QObject::tr("target")
                                                   : QString::fromStdString(data->targetNames[0]);
    chart->setTitle(QObject::tr("Distribution of %1").arg(name));
    chart->setData(categories, {{name, counts, submodelColor(0)}}, QObject::tr("samples"));
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
