#include "ui/core/network_figures.h"

#include "core/error.h"

namespace skynnet::ui {

std::vector<LayerRowFigures> layerRowFigures(const NetworkSpec& spec) {
    std::vector<LayerRowFigures> rows(spec.layers.size() + 1);
    std::optional<Shape> shape = spec.input;
    for (std::size_t i = 0; i < spec.layers.size() && shape; ++i) {
        try {
            rows[i].figures = figures(spec.layers[i], *shape);
            shape = rows[i].figures->output;
        } catch (const Error& e) {
            rows[i].problem = QString::fromUtf8(e.what());
            shape.reset();
        }
    }
    if (shape) {
        const DenseSpec output = spec.outputLayer();
        LayerFigures f = figures(output, *shape);
        f.description = "output " + std::to_string(output.units) + " " + activationName(output.activation);
        rows.back().figures = f;
    }
    return rows;
}

std::int64_t layerTrainingBytes(const LayerFigures& f, int batchSize, int slotsPerParam) {
    // The same terms as trainingMemoryBytes(), for one layer.
    const std::int64_t values = f.params * (2 + slotsPerParam) + f.state +
                                std::int64_t(batchSize) * f.bufferValuesPerSample + f.bufferValuesFixed;
    return values * std::int64_t(sizeof(float));
}

QString shapeText(Shape s) {
    if (s.sequence) return QStringLiteral("%1 steps × %2").arg(s.height).arg(s.width);
    if (s.channels == 1 && s.height == 1) return QString::number(s.width);
    return QStringLiteral("%1×%2×%3").arg(s.channels).arg(s.height).arg(s.width);
}

}  // namespace skynnet::ui
