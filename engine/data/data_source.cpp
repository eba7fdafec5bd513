#include "data/data_source.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <system_error>

#include "core/error.h"
#include "data/csv_loader.h"
#include "data/generators.h"
#include "data/idx_loader.h"
#include "data/image_decode.h"
#include "data/reconstruction_data.h"
#include "data/shape_text.h"
#include "data/text_data.h"

namespace skynnet {
namespace {

constexpr const char* builtinPrefix = "builtin:";

std::string lowercase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::string joined(const std::vector<std::string>& items, std::size_t limit = 12) {
    std::string s;
    for (std::size_t i = 0; i < items.size() && i < limit; ++i) s += (i ? ", " : "") + items[i];
    if (items.size() > limit) s += ", ...";
    return s;
}

// A request's mistake: the message starts with the option it came from.
[[noreturn]] void failOption(const std::string& option, const std::string& problem) {
    throw Error(option + ": " + problem);
}

struct BuiltinSpec {
    std::string name;  // spirals, sine or blobs
    std::map<std::string, double> parameters;
};

// "builtin:NAME[:KEY=VALUE...]". Defaults give a problem a small MLP learns in seconds.
BuiltinSpec parseBuiltin(const DataRequest& request) {
    const std::string spec = request.path.substr(std::string(builtinPrefix).size());
    std::vector<std::string> parts;
    for (std::size_t at = 0;;) {
        const std::size_t colon = spec.find(':', at);
        parts.push_back(spec.substr(at, colon - at));
        if (colon == std::string::npos) break;
        at = colon + 1;
    }
    const std::string name = parts[0];
    const bool spirals = name == "spirals", sine = name == "sine", blobs = name == "blobs";
    if (!spirals && !sine && !blobs)
        failOption(request.option, "unknown built-in dataset '" + name + "' (expected spirals, sine or blobs)");
    std::map<std::string, double> p = {{"samples", sine ? 2000 : 1200},
                                       {"noise", sine ? 0.05 : (blobs ? 1.0 : 0.05)},
                                       {"seed", 1}};
    if (spirals || blobs) p["classes"] = blobs ? 4 : 3;
    if (sine) p["outputs"] = 1;
    if (blobs) p["features"] = 2;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const std::size_t eq = parts[i].find('=');
        const std::string key = parts[i].substr(0, eq);
        if (eq == std::string::npos || !p.count(key)) {
            std::string keys;
            for (const auto& [k, v] : p) keys += (keys.empty() ? "" : ", ") + k;
            failOption(request.option, "builtin:" + name + ": unknown parameter '" + parts[i] +
                                           "' (expected KEY=VALUE with KEY one of " + keys + ")");
        }
        const std::string value = parts[i].substr(eq + 1);
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || v < 0 || (key != "noise" && v != double(long(v))))
            failOption(request.option, "builtin:" + name + ": " + key + " expects a non-negative " +
                                           (key == "noise" ? "number" : "integer") + ", got '" + value + "'");
        p[key] = v;
    }
    return {name, p};
}

Dataset generate(const DataRequest& request) {
    BuiltinSpec b = parseBuiltin(request);
    auto& p = b.parameters;
    const auto seed = std::uint64_t(p["seed"]);
    const float noise = float(p["noise"]);
    Dataset d;
    if (b.name == "sine") {
        d = makeSineRegression(int(p["samples"]), int(p["outputs"]), noise, seed);
    } else {
        const int classes = int(p["classes"]);
        const int perClass = classes > 0 ? int(p["samples"]) / classes : 0;
        d = b.name == "spirals" ? makeSpirals(classes, perClass, noise, seed)
                                : makeBlobs(classes, perClass, int(p["features"]), noise, seed);
    }
    d.source = request.path;
    return d;
}

// Applies a requested task to a dataset whose task is inherent (IDX, generators): classes and
// binary convert into each other when there are 2 classes; anything else is a contradiction.
void applyTask(Dataset& d, const DataRequest& request) {
    if (!request.task || *request.task == d.task) return;
    const bool classes = !predictsValues(d.task) && !predictsValues(*request.task);
    if (classes && (*request.task == Task::Classification || d.classCount() == 2)) {
        d.task = *request.task;
        return;
    }
    throw Error(request.path + ": holds " + taskName(d.task) + " data (" + std::to_string(d.classCount()) +
                " classes), which cannot be trained as " + taskName(*request.task));
}

// Labels that index `from` classes, re-expressed as indices into `to` by name.
void mapLabels(Dataset& d, const std::vector<std::string>& to) {
    std::vector<int> index(d.classNames.size(), -1);
    for (std::size_t k = 0; k < d.classNames.size(); ++k) {
        const auto it = std::find(to.begin(), to.end(), d.classNames[k]);
        if (it != to.end()) index[k] = int(it - to.begin());
    }
    for (int& label : d.labels) {
        if (index[std::size_t(label)] < 0)
            throw Error(d.source + ": class '" + d.classNames[std::size_t(label)] +
                        "' is not one of the model's classes (" + joined(to) + ")");
        label = index[std::size_t(label)];
    }
    d.classNames = to;
}

// The first model feature that `loaded` lacks (it became the target), or "".
std::string firstMissingFeature(const Dataset& loaded, const ModelSchema& schema) {
    for (const std::string& name : schema.featureNames)
        if (std::find(loaded.featureNames.begin(), loaded.featureNames.end(), name) == loaded.featureNames.end())
            return name;
    return {};
}

Dataset loadCsvLike(const DataRequest& request, const ModelSchema& schema, bool needTargets) {
    Dataset d = loadCsvForPrediction(request.path, schema.featureNames, schema.categoricals);
    d.task = schema.task;
    if (!needTargets) return d;
    CsvOptions options;
    const std::string target = request.target.empty() ? schema.targetColumn : request.target;
    if (schema.task == Task::Regression) {
        options.targets = request.target.empty() ? schema.targetNames : std::vector<std::string>{request.target};
        options.task = Task::Regression;
    } else {
        if (!target.empty()) options.targets = {target};
        options.task = Task::Classification;  // the file's own classes; mapped by name below
    }
    Dataset withTargets = loadCsv(request.path, options);
    const std::string missing = firstMissingFeature(withTargets, schema);
    if (!missing.empty() && !target.empty())
        throw Error(request.path + ": the target column '" + target + "' is the model's feature '" + missing + "'");
    if (!missing.empty()) {
        // The last column was taken as the target but is a feature: the file orders its columns
        // differently. The one column that is not a feature is the target.
        std::vector<std::string> others;
        for (const std::string& name : withTargets.featureNames)
            if (std::find(schema.featureNames.begin(), schema.featureNames.end(), name) == schema.featureNames.end())
                others.push_back(name);
        if (others.size() != 1)
            throw Error(request.path + ": " +
                        (others.empty() ? "no target column besides the model's features"
                                        : "cannot tell the target column among " + joined(others)) +
                        " (name it with --target)");
        options.targets = others;
        withTargets = loadCsv(request.path, options);
    }
    if (schema.task == Task::Regression) {
        if (withTargets.targets.cols() != Index(schema.targetNames.size()))
            throw Error(request.path + ": " + std::to_string(withTargets.targets.cols()) +
                        " target columns, the model predicts " + std::to_string(schema.targetNames.size()));
        d.targets = std::move(withTargets.targets);
        d.targetNames = schema.targetNames;
    } else {
        mapLabels(withTargets, schema.classNames);
        d.labels = std::move(withTargets.labels);
        d.labelColumn = withTargets.labelColumn;
        d.classNames = schema.classNames;
    }
    return d;
}

// The options of an image folder loaded like a model: its sample shape, which must be an image's.
ImageOptions imageOptionsLike(const DataRequest& request, const ModelSchema& schema) {
    const Shape& s = schema.sampleShape;
    if ((s.channels != 1 && s.channels != 3) || s.height < 2 || s.width < 2)
        throw Error(request.path + ": the model takes " + std::to_string(s.size()) + " features of shape " +
                    s.toString() + ", not images");
    ImageOptions o = request.image;
    o.channels = s.channels;
    o.height = s.height;
    o.width = s.width;
    return o;
}

// The layout declared for a CSV's rows must cover its feature columns exactly.
void applySampleShape(Dataset& d, const DataRequest& request) {
    if (!request.sampleShape) return;
    const Shape& shape = *request.sampleShape;
    if (!d.categoricals.empty())
        failOption(request.sampleShapeOption, request.path + " has text column '" +
                                                  d.featureNames[std::size_t(d.categoricals.front().column)] +
                                                  "', which cannot be part of a sample shape");
    if (shape.size() != d.features.cols())
        failOption(request.sampleShapeOption, sampleShapeText(shape) + " is " + std::to_string(shape.size()) +
                                                  " values per sample, but " + request.path + " has " +
                                                  std::to_string(d.features.cols()) +
                                                  " feature columns (besides the target)");
    d.sampleShape = shape;
}

// --as-sequence rows: a one-channel image (1, H, W) read as H steps of W features.
void applySequenceRows(Dataset& d, const DataRequest& request) {
    if (!request.sequenceRows) return;
    const Shape& s = d.sampleShape;
    if (s.channels != 1)
        failOption(request.sequenceOption,
                   "rows reads a one-channel image (1 x H x W) as H steps of W features, but " + request.path +
                       " holds images of " + std::to_string(s.channels) + " channels (" + sampleShapeText(s) +
                       "), whose rows are not one sequence of features (--channels 1 reads an image folder in gray)");
    if (s.height < 2 || s.sequence)
        failOption(request.sequenceOption, "rows reads an image (1 x H x W) as H steps of W features, but " +
                                               request.path + " holds samples of shape " + sampleShapeText(s) +
                                               ", not images");
    d.sampleShape = Shape::steps(s.height, s.width);
}

// Texts loaded for a text model: its task and vocabulary, encoded when the vocabulary is fitted.
void finishTextsLike(Dataset& d, const ModelSchema& schema) {
    d.task = schema.task;
    d.vocabulary = schema.vocabulary;
    if (schema.vocabulary->maxLength > 0) encodeTexts(d, *schema.vocabulary);
}

// A text model's data: a CSV's text column or a text folder (or, without targets, unlabelled text
// files), encoded when the vocabulary is fitted.
Dataset loadTextLike(const DataRequest& request, const ModelSchema& schema, bool needTargets) {
    if (isUnlabelledTexts(request)) {
        if (needTargets)
            throw Error(request.path +
                        ": texts without labels; labelled texts are a CSV with the target column or a folder "
                        "with one subfolder of .txt files per class");
        return std::move(loadTextsLike(request, schema).data);
    }
    const DataKind kind = dataKind(request.path);
    Dataset d;
    if (kind == DataKind::TextFolder) {
        d = loadTextFolder(request.path);
        if (needTargets) {
            mapLabels(d, schema.classNames);
        } else {
            d.labels.clear();  // features only, as loadLike promises
            d.classNames.clear();
        }
    } else if (kind == DataKind::Csv) {
        const std::string column = request.textColumn.empty() ? schema.textColumn : request.textColumn;
        if (column.empty())
            failOption(request.textColumnOption,
                       "the model reads texts, and " + request.path + " is a CSV file: name the column of the texts");
        if (!needTargets) {
            d = loadCsvTexts(request.path, column);
        } else {
            CsvOptions options;
            options.textColumn = column;
            const std::string target = request.target.empty() ? schema.targetColumn : request.target;
            if (schema.task == Task::Regression) {
                options.targets = request.target.empty() ? schema.targetNames : std::vector<std::string>{target};
                options.task = Task::Regression;
            } else {
                if (!target.empty()) options.targets = {target};
                options.task = Task::Classification;  // the file's own classes; mapped by name below
            }
            d = loadCsv(request.path, options);
            if (schema.task != Task::Regression) mapLabels(d, schema.classNames);
            else d.targetNames = schema.targetNames;
        }
    } else {
        throw Error(request.path +
                    ": the model reads texts (a CSV column, or a folder with one subfolder of .txt "
                    "files per class), not " +
                    (kind == DataKind::Builtin ? std::string("generated data") : std::string("images")));
    }
    finishTextsLike(d, schema);
    if (needTargets) d.validate();
    return d;
}

Dataset loadReconstructionData(const DataRequest& request) {
    Dataset d;
    switch (dataKind(request.path)) {
    case DataKind::Csv:
        d = loadCsvForReconstruction(request.path, request.target);
        d.targetColumn = request.target;
        keepFeaturesOnly(d);
        applySampleShape(d, request);
        d.validate();
        return d;
    case DataKind::Idx: d = loadIdxImages(request.path); break;  // labels, if any, are not needed
    case DataKind::Builtin: d = generate(request); break;
    case DataKind::ImageFolder: d = loadImageFolder(request.path, request.image); break;
    case DataKind::ImageFile:
        failOption(request.option, request.path + " is a single image; training needs a folder of images");
    case DataKind::TextFolder:
        failOption(request.option, request.path + " is a folder of texts; reconstruction needs numeric features");
    }
    keepFeaturesOnly(d);
    d.validate();
    return d;
}

// Reconstruction data loaded like `schema`: the features in the model's columns, labels ignored.
Dataset loadReconstructionLike(const DataRequest& request, const ModelSchema& schema, DataKind kind);

}  // namespace

DataKind dataKind(const std::string& path) {
    if (path.rfind(builtinPrefix, 0) == 0) return DataKind::Builtin;
    if (isTextFolder(path)) return DataKind::TextFolder;
    if (isImageFolder(path)) return DataKind::ImageFolder;
    if (isImageFileName(path)) return DataKind::ImageFile;
    const std::string name = lowercase(std::filesystem::path(path).filename().string());
    if (name.find("idx") != std::string::npos || name.find("ubyte") != std::string::npos) return DataKind::Idx;
    unsigned char magic[4] = {};
    if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
        const std::size_t n = std::fread(magic, 1, 4, f);
        std::fclose(f);
        // gzip: the only compressed data this tool reads is IDX; IDX: 0x00 0x00 type dims.
        if (n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) return DataKind::Idx;
        if (n == 4 && magic[0] == 0 && magic[1] == 0 && magic[2] == 0x08 && (magic[3] == 1 || magic[3] == 3))
            return DataKind::Idx;
    }
    return DataKind::Csv;
}

void checkDataRequest(const DataRequest& request) {
    const DataKind kind = dataKind(request.path);
    if (kind != DataKind::Idx && !request.labels.empty())
        failOption(request.labelsOption, "only applies to IDX image files, and " + request.path + " is not one");
    if (kind != DataKind::Csv && !request.target.empty())
        failOption(request.targetOption, "only applies to CSV files, and " + request.path + " is not one");
    if (kind != DataKind::Csv && request.sampleShape)
        failOption(request.sampleShapeOption, "only applies to CSV files, and " + request.path + " is not one");
    if (kind != DataKind::ImageFolder && kind != DataKind::ImageFile && request.image != ImageOptions{})
        failOption(request.imageOption, "only applies to image folders, and " + request.path + " is not one");
    if (kind != DataKind::Csv && !request.textColumn.empty())
        failOption(request.textColumnOption,
                   "only applies to CSV files, and " + request.path +
                       " is not one (a folder of texts has one subfolder of .txt files per class)");
    if (request.sampleShape && !request.textColumn.empty())
        failOption(request.sampleShapeOption, "cannot be combined with " + request.textColumnOption +
                                                  ": a text is read as a sequence of token ids");
    if (request.sequenceRows && (kind == DataKind::TextFolder || !request.textColumn.empty()))
        failOption(request.sequenceOption, "rows applies to images, and " + request.path +
                                               " holds texts (already read as sequences of token ids)");
    if (kind == DataKind::Builtin) parseBuiltin(request);
}

Dataset loadTrainingData(const DataRequest& request) {
    checkDataRequest(request);
    if (request.task == Task::Reconstruction) return loadReconstructionData(request);
    const DataKind kind = dataKind(request.path);
    Dataset d;
    switch (kind) {
    case DataKind::Csv: {
        CsvOptions options;
        if (!request.target.empty()) options.targets = {request.target};
        options.task = request.task;
        options.textColumn = request.textColumn;
        Dataset csv = loadCsv(request.path, options);
        csv.targetColumn = request.target;
        applySampleShape(csv, request);
        applySequenceRows(csv, request);
        return csv;
    }
    case DataKind::TextFolder: d = loadTextFolder(request.path); break;
    case DataKind::Idx: d = loadIdx(request.path, request.labels); break;
    case DataKind::Builtin: d = generate(request); break;
    case DataKind::ImageFolder: d = loadImageFolder(request.path, request.image); break;
    case DataKind::ImageFile:
        failOption(request.option,
                   request.path + " is a single image; training needs a folder with one subfolder of images per class");
    }
    applyTask(d, request);
    applySequenceRows(d, request);
    d.targetColumn = request.target;  // empty: checkDataRequest allows a target for CSV only
    d.validate();
    return d;
}

namespace {

// loadLike for data that is not text, in the layout the file gives.
Dataset loadLikeLayout(const DataRequest& request, const ModelSchema& schema, bool needTargets) {
    const DataKind kind = dataKind(request.path);
    if (kind == DataKind::TextFolder)
        throw Error(request.path + ": a folder of texts, and the model was not trained on text");
    if (!request.textColumn.empty()) failOption(request.textColumnOption, "the model was not trained on text");
    if (kind != DataKind::Idx && !request.labels.empty())
        failOption(request.labelsOption, "only applies to IDX image files, and " + request.path + " is not one");
    if (schema.task == Task::Reconstruction) return loadReconstructionLike(request, schema, kind);
    if (kind == DataKind::Csv) {
        Dataset d = loadCsvLike(request, schema, needTargets);
        if (d.features.cols() == schema.sampleShape.size()) d.sampleShape = schema.sampleShape;
        if (needTargets) d.validate();
        return d;
    }
    if (kind == DataKind::ImageFile && needTargets)
        failOption(request.option, request.path + " is a single image without a label; labelled images are a folder "
                                                  "with one subfolder per class");
    if ((kind == DataKind::ImageFolder || kind == DataKind::ImageFile) && !needTargets) {
        Dataset d = std::move(loadImagesLike(request, schema).data);
        d.featureNames = schema.featureNames;
        d.task = schema.task;
        return d;
    }
    if (kind == DataKind::ImageFolder) {
        if (predictsValues(schema.task))
            throw Error(request.path + ": holds classified images, the model is for regression");
        Dataset d = loadImageFolder(request.path, imageOptionsLike(request, schema));
        mapLabels(d, schema.classNames);
        d.task = schema.task;
        d.featureNames = schema.featureNames;
        d.validate();
        return d;
    }
    Dataset d = kind == DataKind::Idx ? loadIdx(request.path, request.labels) : generate(request);
    if (d.features.cols() != Index(schema.featureNames.size()))
        throw Error(request.path + ": " + std::to_string(d.features.cols()) +
                    " features per sample, the model expects " + std::to_string(schema.featureNames.size()));
    if (needTargets && predictsValues(d.task) != predictsValues(schema.task))
        throw Error(request.path + ": holds " + taskName(d.task) + " data, the model is for " + taskName(schema.task));
    if (needTargets && !predictsValues(schema.task)) {
        // IDX labels and generator classes are numbered the same way in every file: match by index.
        for (int label : d.labels)
            if (label >= int(schema.classNames.size()))
                throw Error(request.path + ": label " + std::to_string(label) + " is outside the model's " +
                            std::to_string(schema.classNames.size()) + " classes");
        d.classNames = schema.classNames;
    }
    if (needTargets && schema.task == Task::Regression && d.targets.cols() != Index(schema.targetNames.size()))
        throw Error(request.path + ": " + std::to_string(d.targets.cols()) + " target columns, the model predicts " +
                    std::to_string(schema.targetNames.size()));
    d.task = schema.task;
    d.featureNames = schema.featureNames;
    d.targetNames = schema.targetNames;
    if (needTargets) d.validate();
    return d;
}

}  // namespace

Dataset loadLike(const DataRequest& request, const ModelSchema& schema, bool needTargets) {
    if (schema.isText()) return loadTextLike(request, schema, needTargets);
    Dataset d = loadLikeLayout(request, schema, needTargets);
    // The model's layout (--as-sequence rows: the same values as H steps of W features).
    if (schema.sampleShape.sequence && d.features.cols() == schema.sampleShape.size())
        d.sampleShape = schema.sampleShape;
    return d;
}

namespace {

Dataset loadReconstructionLike(const DataRequest& request, const ModelSchema& schema, DataKind kind) {
    Dataset d;
    switch (kind) {
    case DataKind::Csv: d = loadCsvForPrediction(request.path, schema.featureNames, schema.categoricals); break;
    case DataKind::Idx: d = loadIdxImages(request.path); break;
    case DataKind::Builtin: d = generate(request); break;
    case DataKind::ImageFolder: d = loadImageFolder(request.path, imageOptionsLike(request, schema)); break;
    case DataKind::ImageFile: d = std::move(loadImagesLike(request, schema).data); break;
    case DataKind::TextFolder: throw Error(request.path + ": a folder of texts, and the model reconstructs numbers");
    }
    if (d.features.cols() != Index(schema.featureNames.size()))
        throw Error(request.path + ": " + std::to_string(d.features.cols()) +
                    " features per sample, the model expects " + std::to_string(schema.featureNames.size()));
    d.featureNames = schema.featureNames;
    d.categoricals.clear();  // a model for reconstruction has none (keepFeaturesOnly)
    keepFeaturesOnly(d);
    d.sampleShape = schema.sampleShape;
    d.validate();
    return d;
}

}  // namespace

bool isUnlabelledTexts(const DataRequest& request) {
    std::error_code ec;
    if (std::filesystem::is_directory(request.path, ec)) return dataKind(request.path) != DataKind::TextFolder;
    return request.textColumn.empty() && isTextFileName(request.path) &&
           std::filesystem::is_regular_file(request.path, ec);
}

TextFiles loadTextsLike(const DataRequest& request, const ModelSchema& schema) {
    if (!schema.isText()) throw Error(request.path + ": texts, and the model was not trained on text");
    TextFiles files = loadTextFiles(request.path);
    finishTextsLike(files.data, schema);
    return files;
}

ImageFiles loadImagesLike(const DataRequest& request, const ModelSchema& schema) {
    ImageFiles files = loadImageFiles(request.path, imageOptionsLike(request, schema));
    files.data.featureNames = schema.featureNames;
    return files;
}

}  // namespace skynnet
