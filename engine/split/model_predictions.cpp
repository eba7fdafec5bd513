#include "split/model_predictions.h"

#include <cstdio>

#include "train/metrics.h"

namespace skynnet {
namespace {

// RFC 4180: quoted when the field holds a delimiter, a quote, a line break or outer spaces.
std::string csvField(const std::string& s) {
    const bool quote = s.find_first_of(",\"\r\n") != std::string::npos ||
                       (!s.empty() && (s.front() == ' ' || s.back() == ' '));
    if (!quote) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

// Network outputs of a reconstruction model -> the raw input's units: the preprocessing's scaling
// undone (x = x' / scale + offset). A reconstruction model's inputs have no one-hot columns.
Matrix unscaled(const Preprocessing& p, const Matrix& out) {
    if (!p.fitted() || !p.oneHot.empty() || Index(p.numericColumns.size()) != out.cols()) return out;
    Matrix raw = out;
    for (Index j = 0; j < out.cols(); ++j) raw.col(j) = (out.col(j).array() / p.scale[j] + p.offset[j]).matrix();
    return raw;
}

}  // namespace

ModelPredictions predictData(CombinedModel& model, const SavedCombinedModel& saved, const DataRequest& request,
                             const CancelToken* cancel, const std::function<void(double fraction)>& progress) {
    ModelPredictions p;
    const DataKind kind = dataKind(request.path);
    Dataset data;
    if (saved.schema.isText() && isUnlabelledTexts(request)) {
        TextFiles texts = loadTextsLike(request, saved.schema);
        data = std::move(texts.data);
        p.paths = std::move(texts.paths);
    } else if (kind == DataKind::ImageFile || kind == DataKind::ImageFolder) {
        ImageFiles images = loadImagesLike(request, saved.schema);
        p.warning = images.data.skippedFilesWarning();
        data = std::move(images.data);
        p.paths = std::move(images.paths);
    } else {
        data = loadLike(request, saved.schema, false);
    }
    if (cancel && cancel->cancelled()) return p;  // stopped while the data loaded
    p.outputs = cancel || progress ? predictRaw(model, saved, data.features, cancel, progress)
                                   : predictRaw(model, saved, data.features);
    return p;
}

std::string predictionsCsv(const SavedCombinedModel& model, const ModelPredictions& p) {
    const Matrix& out = p.outputs;
    const std::vector<std::string>& paths = p.paths;
    std::string text;
    const auto pathField = [&](Index r) {
        return paths.empty() ? std::string() : csvField(paths[std::size_t(r)]) + ",";
    };
    if (!paths.empty()) text += "path,";
    const auto name = [&](const std::vector<std::string>& names, Index k, const char* fallback) {
        return std::size_t(k) < names.size() ? names[std::size_t(k)] : fallback + std::to_string(k + 1);
    };
    if (predictsValues(model.task())) {
        // Reconstructions in the units of the input they reconstruct, as the data file has them.
        const Matrix values = model.task() == Task::Reconstruction ? unscaled(model.preprocessing, out) : out;
        for (Index j = 0; j < out.cols(); ++j)
            text += (j ? "," : "") + csvField(name(model.schema.targetNames, j, "output_"));
        text += "\n";
        for (Index r = 0; r < out.rows(); ++r) {
            text += pathField(r);
            for (Index j = 0; j < out.cols(); ++j) text += (j ? "," : "") + number(values(r, j));
            text += "\n";
        }
        return text;
    }
    // A binary network has one sigmoid output p(second class); both probabilities are written.
    const bool binary = model.task() == Task::Binary;
    const Index classes = binary ? 2 : out.cols();
    text += "predicted";
    for (Index k = 0; k < classes; ++k)
        text += "," + csvField("probability_" + name(model.schema.classNames, k, "class_"));
    text += "\n";
    const std::vector<int> predicted = predictedClasses(out);
    for (Index r = 0; r < out.rows(); ++r) {
        text += pathField(r) + csvField(name(model.schema.classNames, predicted[std::size_t(r)], "class_"));
        if (binary) text += "," + number(1.0 - out(r, 0)) + "," + number(out(r, 0));
        else
            for (Index k = 0; k < classes; ++k) text += "," + number(out(r, k));
        text += "\n";
    }
    return text;
}

}  // namespace skynnet
