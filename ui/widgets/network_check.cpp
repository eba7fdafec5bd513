#include "ui/widgets/network_check.h"

#include <QFile>
#include <QObject>
#include <exception>

#include "ui/core/project_document.h"
#include "ui/widgets/format.h"

namespace skynnet::ui {

std::int64_t availableMemoryBytes() {
    QFile f(QStringLiteral("/proc/meminfo"));
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return 0;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine();
        if (line.startsWith("MemAvailable:")) return line.mid(13).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return 0;
}

NetworkCheck checkNetwork(const ProjectDocument& document) {
    NetworkCheck c;
    const NetworkSpec& net = document.network();
    if (!document.hasData()) c.errors << QObject::tr("No data loaded: the input and output layers follow the data.");
    int dense = 0, scalable = 0;
    for (std::size_t i = 0; i < net.layers.size(); ++i) {
        const QString where = QObject::tr("Layer %1").arg(i + 1);
        visitLayer(
            net.layers[i],
            [&](const DenseSpec& d) {
                ++dense;
                if (d.units < 1) c.errors << QObject::tr("%1: a dense layer needs at least 1 unit.").arg(where);
                else if (d.scalable) ++scalable;
                if (d.units == 1) c.warnings << QObject::tr("%1: a single unit is a bottleneck the whole network must pass.").arg(where);
            },
            [&](const DropoutSpec& d) {
                if (!(d.rate >= 0 && d.rate < 1)) c.errors << QObject::tr("%1: the dropout rate must be in [0, 1).").arg(where);
            },
            [](const FlattenSpec&) {},
            // Image layers are edited by the designer in a later commit; until then only their type.
            [](const auto&) {});
    }
    if (dense == 0)
        c.warnings << QObject::tr("No hidden dense layer: a linear model, and the split has no width to shrink.");
    else if (scalable == 0)
        c.warnings << QObject::tr("No layer is scalable: every submodel will be as wide as the original model.");
    try {
        (void)describe(net);
        if (document.hasData()) {
            const ProjectTraining& t = document.trainSettings();
            const std::int64_t need = trainingMemoryBytes(
                net, t.config.batchSize, slotsPerParam(t.config.optimizer.kind, t.config.optimizer.momentum));
            const std::int64_t have = availableMemoryBytes();
            if (have > 0 && need > have)
                c.errors << QObject::tr("Training the original model needs about %1, more than the %2 available.")
                                .arg(formatBytes(need), formatBytes(have));
        }
    } catch (const std::exception& e) {
        c.errors << QString::fromUtf8(e.what());
    }
    return c;
}

}  // namespace skynnet::ui
