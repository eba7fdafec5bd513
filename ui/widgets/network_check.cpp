#include "ui/widgets/network_check.h"

#include <QFile>
#include <QObject>
#include <exception>

#include "ui/core/network_figures.h"
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
    const std::vector<LayerRowFigures> rows = layerRowFigures(net);
    bool shapesKnown = true;
    int widths = 0, scalable = 0;
    for (std::size_t i = 0; i < net.layers.size(); ++i) {
        const QString where = QObject::tr("Layer %1").arg(i + 1);
        if (!rows[i].problem.isEmpty()) {  // the first layer that cannot take its input; the rest are unknown
            c.errors << QObject::tr("%1: %2.").arg(where, rows[i].problem);
            shapesKnown = false;
        }
        const std::optional<Shape> input = i == 0                ? std::optional<Shape>(net.input)
                                           : rows[i - 1].figures ? std::optional<Shape>(rows[i - 1].figures->output)
                                                                 : std::nullopt;
        // An image layer on flat values: the data has no (C, H, W) shape for it to work on.
        const auto needsImage = [&](const char* kind) {
            if (document.hasData() && input && input->height == 1 && rows[i].problem.isEmpty())
                c.warnings << QObject::tr(
                                  "%1: %2 on a flat input of %3 values; it needs images (channels × height × width).")
                                  .arg(where, QString::fromLatin1(kind))
                                  .arg(input->size());
        };
        const auto widthLayer = [&](bool scalesWithF) {
            ++widths;
            if (scalesWithF) ++scalable;
        };
        visitLayer(
            net.layers[i],
            [&](const DenseSpec& d) {
                ++widths;
                if (d.units < 1) c.errors << QObject::tr("%1: a dense layer needs at least 1 unit.").arg(where);
                else if (d.scalable) ++scalable;
                if (d.units == 1)
                    c.warnings
                        << QObject::tr("%1: a single unit is a bottleneck the whole network must pass.").arg(where);
            },
            [&](const DropoutSpec& d) {
                if (!(d.rate >= 0 && d.rate < 1))
                    c.errors << QObject::tr("%1: the dropout rate must be in [0, 1).").arg(where);
            },
            [](const FlattenSpec&) {},
            [&](const ConvSpec& conv) {
                ++widths;
                if (conv.scalable && conv.filters >= 1) ++scalable;
                needsImage(ConvSpec::kind);
            },
            [&](const MaxPoolSpec&) { needsImage(MaxPoolSpec::kind); },
            [&](const AvgPoolSpec&) { needsImage(AvgPoolSpec::kind); },
            [&](const GlobalAvgPoolSpec&) { needsImage(GlobalAvgPoolSpec::kind); },
            [](const BatchNormSpec&) {},  // per feature on a flat input, per channel on an image
            [](const ActivationSpec&) {},
            // Their shape problems (a GRU on flat values, an embedding without text) are the
            // engine's figures() to find, row by row.
            [&](const EmbeddingSpec& e) { widthLayer(e.scalable); }, [&](const GruSpec& g) { widthLayer(g.scalable); },
            [&](const LstmSpec& l) { widthLayer(l.scalable); }, [](const SeqPoolSpec&) {},
            [&](const PatchSpec& p) { widthLayer(p.scalable); }, [&](const EncoderSpec& e) { widthLayer(e.scalable); },
            [](const LayerNormSpec&) {}, [](const AttentionSpec&) {});
    }
    if (widths == 0)
        c.warnings << QObject::tr(
            "No hidden dense or conv layer: a linear model, and the split has no width to shrink.");
    else if (scalable == 0)
        c.warnings << QObject::tr("No layer is scalable: every submodel will be as wide as the original model.");
    if (!shapesKnown) return c;
    try {
        if (document.hasData()) {
            const ProjectTraining& t = document.trainSettings();
            const std::int64_t need = trainingMemoryBytes(net, t.config.batchSize,
                                                          slotsPerParam(t.config.optimizer.kind,
                                                                        t.config.optimizer.momentum));
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
