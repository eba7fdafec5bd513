#include "ui/core/data_loading.h"

#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>

#include "core/error.h"
#include "data/csv_loader.h"
#include "data/generators.h"
#include "data/idx_loader.h"

namespace skynnet::ui {
namespace {

enum class Kind { Csv, Idx, Builtin };
constexpr const char* builtinPrefix = "builtin:";

// By prefix, then by name ("idx", "ubyte"), then by magic (gzip, or IDX's 0x0000080n), else CSV.
Kind kindOf(const std::string& path) {
    if (path.rfind(builtinPrefix, 0) == 0) return Kind::Builtin;
    std::string name = std::filesystem::path(path).filename().string();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (name.find("idx") != std::string::npos || name.find("ubyte") != std::string::npos) return Kind::Idx;
    unsigned char magic[4] = {};
    if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
        const std::size_t n = std::fread(magic, 1, 4, f);
        std::fclose(f);
        if (n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) return Kind::Idx;
        if (n == 4 && magic[0] == 0 && magic[1] == 0 && magic[2] == 0x08 && (magic[3] == 1 || magic[3] == 3)) return Kind::Idx;
    }
    return Kind::Csv;
}

// "builtin:NAME[:KEY=VALUE...]", the same names, keys and defaults as the command-line tool.
Dataset generate(const std::string& path) {
    const std::string spec = path.substr(std::string(builtinPrefix).size());
    std::vector<std::string> parts;
    for (std::size_t at = 0;;) {
        const std::size_t colon = spec.find(':', at);
        parts.push_back(spec.substr(at, colon - at));
        if (colon == std::string::npos) break;
        at = colon + 1;
    }
    const std::string& name = parts[0];
    const bool spirals = name == "spirals", sine = name == "sine", blobs = name == "blobs";
    if (!spirals && !sine && !blobs)
        throw Error(path + ": unknown built-in dataset '" + name + "' (expected spirals, sine or blobs)");
    std::map<std::string, double> p = {{"samples", sine ? 2000 : 1200}, {"noise", sine ? 0.05 : (blobs ? 1.0 : 0.05)}, {"seed", 1}};
    if (spirals || blobs) p["classes"] = blobs ? 4 : 3;
    if (sine) p["outputs"] = 1;
    if (blobs) p["features"] = 2;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const std::size_t eq = parts[i].find('=');
        const std::string key = parts[i].substr(0, eq);
        if (eq == std::string::npos || !p.count(key)) {
            std::string keys;
            for (const auto& [k, v] : p) keys += (keys.empty() ? "" : ", ") + k;
            throw Error(path + ": unknown parameter '" + parts[i] + "' (expected KEY=VALUE with KEY one of " + keys + ")");
        }
        const std::string value = parts[i].substr(eq + 1);
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || v < 0 || (key != "noise" && v != double(long(v))))
            throw Error(path + ": " + key + " expects a non-negative " + (key == "noise" ? "number" : "integer") + ", got '" +
                        value + "'");
        p[key] = v;
    }
    const auto seed = std::uint64_t(p["seed"]);
    const float noise = float(p["noise"]);
    Dataset d;
    if (sine) {
        d = makeSineRegression(int(p["samples"]), int(p["outputs"]), noise, seed);
    } else {
        const int classes = int(p["classes"]);
        const int perClass = classes > 0 ? int(p["samples"]) / classes : 0;
        d = spirals ? makeSpirals(classes, perClass, noise, seed) : makeBlobs(classes, perClass, int(p["features"]), noise, seed);
    }
    d.source = path;
    return d;
}

// A requested task on data whose task is inherent (IDX, generators): 2 classes may be trained as
// binary or as a 2-way softmax; anything else is a contradiction.
void applyTask(Dataset& d, const std::optional<Task>& task) {
    if (!task || *task == d.task) return;
    if (d.task != Task::Regression && *task != Task::Regression && (*task == Task::Classification || d.classCount() == 2)) {
        d.task = *task;
        return;
    }
    throw Error(d.source + ": holds " + taskName(d.task) + " data (" + std::to_string(d.classCount()) +
                " classes), which cannot be trained as " + taskName(*task));
}

Dataset loadTraining(const DataSettings& s) {
    const std::string path = s.path.toStdString();
    if (path.empty()) throw Error("no data file chosen");
    switch (kindOf(path)) {
    case Kind::Csv: {
        CsvOptions options;
        if (!s.targetColumn.isEmpty()) options.targets = {s.targetColumn.toStdString()};
        options.task = s.task;
        return loadCsv(path, options);
    }
    case Kind::Idx: {
        Dataset d = loadIdx(path, s.labelsPath.toStdString());
        applyTask(d, s.task);
        return d;
    }
    case Kind::Builtin: {
        Dataset d = generate(path);
        applyTask(d, s.task);
        return d;
    }
    }
    return {};
}

// A CSV test file: features by the training file's column names and category codes, labels mapped
// onto the training classes by name, so a file with another class order still lines up.
Dataset loadTestCsv(const std::string& path, const Dataset& train, const QString& targetColumn) {
    Dataset d = loadCsvForPrediction(path, train.featureNames, train.categoricals);
    CsvOptions options;
    const bool regression = train.task == Task::Regression;
    if (!targetColumn.isEmpty()) options.targets = {targetColumn.toStdString()};
    else if (regression) options.targets = train.targetNames;
    options.task = regression ? Task::Regression : Task::Classification;
    Dataset t = loadCsv(path, options);
    for (const std::string& name : train.featureNames)
        if (std::find(t.featureNames.begin(), t.featureNames.end(), name) == t.featureNames.end())
            throw Error(path + ": no target column: column '" + name + "' is one of the training features");
    if (regression) {
        if (t.targets.cols() != Index(train.targetNames.size()))
            throw Error(path + ": " + std::to_string(t.targets.cols()) + " target columns, the training data has " +
                        std::to_string(train.targetNames.size()));
        d.targets = std::move(t.targets);
    } else {
        for (int& label : t.labels) {
            const std::string& name = t.classNames[std::size_t(label)];
            const auto it = std::find(train.classNames.begin(), train.classNames.end(), name);
            if (it == train.classNames.end()) throw Error(path + ": class '" + name + "' does not occur in the training data");
            label = int(it - train.classNames.begin());
        }
        d.labels = std::move(t.labels);
    }
    return d;
}

Dataset loadTest(const DataSettings& s, const Dataset& train) {
    const std::string path = s.testPath.toStdString();
    Dataset d;
    if (kindOf(path) == Kind::Csv) {
        d = loadTestCsv(path, train, s.targetColumn);
    } else {
        d = kindOf(path) == Kind::Idx ? loadIdx(path, s.testLabelsPath.toStdString()) : generate(path);
        if (d.features.cols() != train.features.cols())
            throw Error(path + ": " + std::to_string(d.features.cols()) + " features per sample, the training data has " +
                        std::to_string(train.features.cols()));
        if ((d.task == Task::Regression) != (train.task == Task::Regression))
            throw Error(path + ": holds " + taskName(d.task) + " data, the training data is " + taskName(train.task));
        // IDX labels and generator classes are numbered alike in every file: match by index.
        for (int label : d.labels)
            if (label >= train.classCount())
                throw Error(path + ": label " + std::to_string(label) + " is outside the training data's " +
                            std::to_string(train.classCount()) + " classes");
        if (train.task == Task::Regression && d.targets.cols() != train.targets.cols())
            throw Error(path + ": " + std::to_string(d.targets.cols()) + " target columns, the training data has " +
                        std::to_string(train.targets.cols()));
    }
    d.source = path;
    d.task = train.task;
    d.sampleShape = train.sampleShape;
    d.featureNames = train.featureNames;
    d.categoricals = train.categoricals;
    d.classNames = train.classNames;
    d.targetNames = train.targetNames;
    d.validate();
    return d;
}

}  // namespace

LoadedData loadData(const DataSettings& settings) {
    auto train = std::make_shared<Dataset>(loadTraining(settings));
    train->validate();
    if (train->size() == 0) throw Error(train->source + ": no samples");
    LoadedData loaded;
    if (!settings.testPath.isEmpty()) loaded.test = std::make_shared<const Dataset>(loadTest(settings, *train));
    loaded.train = std::move(train);
    return loaded;
}

QFuture<LoadedData> loadDataAsync(const DataSettings& settings) {
    return QtConcurrent::run([settings] {
        try {
            return loadData(settings);
        } catch (const std::exception& e) {
            throw DataLoadError(QString::fromStdString(e.what()));
        }
    });
}

}  // namespace skynnet::ui
