// `skynnet-cli predict`: a saved model (one network or a combined split) applied to data with or
// without its target column; one CSV row per sample with the predicted class (or values) and the
// class probabilities. Images (a file, or a folder of them) get the file's path first in each row.
#include <cstdio>
#include <iostream>

#include "cli_args.h"
#include "commands.h"
#include "data/data_source.h"
#include "data_request.h"
#include "io/atomic_file.h"
#include "model_input.h"
#include "output_files.h"
#include "train/metrics.h"

namespace skynnet::cli {
namespace {

const std::vector<OptionSpec>& predictOptionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--model", "MODEL", "the model file written by 'train --save' (a single or a combined model)"},
        {"--data", "PATH", "CSV/TSV (the target column may be absent), IDX images, an image file or a folder of images, or builtin:..."},
        {"--labels", "PATH", "IDX labels file (default: the one beside the images)"},
        strictImagesSpec(),
        {"--output", "FILE", "the predictions CSV to write"},
        {"--help", "", "show this help"},
    };
    return specs;
}

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

// `paths`: the file of each row, written first (image data); empty for other data.
std::string predictionsCsv(const SavedCombinedModel& model, const Matrix& out, const std::vector<std::string>& paths) {
    std::string text;
    const auto pathField = [&](Index r) { return paths.empty() ? std::string() : csvField(paths[std::size_t(r)]) + ","; };
    if (!paths.empty()) text += "path,";
    const auto name = [&](const std::vector<std::string>& names, Index k, const char* fallback) {
        return std::size_t(k) < names.size() ? names[std::size_t(k)] : fallback + std::to_string(k + 1);
    };
    if (model.task() == Task::Regression) {
        for (Index j = 0; j < out.cols(); ++j) text += (j ? "," : "") + csvField(name(model.schema.targetNames, j, "output_"));
        text += "\n";
        for (Index r = 0; r < out.rows(); ++r) {
            text += pathField(r);
            for (Index j = 0; j < out.cols(); ++j) text += (j ? "," : "") + number(out(r, j));
            text += "\n";
        }
        return text;
    }
    // A binary network has one sigmoid output p(second class); both probabilities are written.
    const bool binary = model.task() == Task::Binary;
    const Index classes = binary ? 2 : out.cols();
    text += "predicted";
    for (Index k = 0; k < classes; ++k) text += "," + csvField("probability_" + name(model.schema.classNames, k, "class_"));
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

}  // namespace

int runPredict(const std::vector<std::string>& words) {
    const Args args = Args::parse(words, predictOptionSpecs());
    if (args.flag("--help")) {
        std::cout << "Usage: skynnet-cli predict --model MODEL --data PATH --output FILE\n\n"
                     "Writes one CSV row per sample: the predicted class and the probability of each class\n"
                     "(or the predicted values for regression), after a header row. For images (one file, or a\n"
                     "folder of them and of its subfolders) each row starts with the file's path; the images are\n"
                     "resized and converted to the model's size and channels, unreadable ones skipped with a warning.\n\n"
                  << formatOptions(predictOptionSpecs());
        return exitOk;
    }
    const DataRequest request = dataRequest(args);
    checkRequestUsage(request);
    const std::string modelPath = args.required("--model");
    const std::string outputPath = args.required("--output");
    checkOutputPaths({{"--output", outputPath}});

    LoadedModel model = loadTrainedModel(modelPath);
    const DataKind kind = dataKind(request.path);
    ImageFiles images;
    if (kind == DataKind::ImageFile || kind == DataKind::ImageFolder) {
        images = loadImagesLike(request, model.saved.schema);
        if (const std::string w = images.data.skippedFilesWarning(); !w.empty()) std::fprintf(stderr, "warning: %s\n", w.c_str());
    } else {
        images.data = loadLike(request, model.saved.schema, false);
    }
    const Matrix out = modelOutputs(model, images.data);
    writeFileAtomically(outputPath, predictionsCsv(model.saved, out, images.paths));
    std::cout << "wrote " << out.rows() << " predictions to " << outputPath << "\n";
    return exitOk;
}

}  // namespace skynnet::cli
