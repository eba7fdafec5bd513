// `skynnet-cli predict`: a saved model (one network or a combined split) applied to data with or
// without its target column; one CSV row per sample with the predicted class (or values) and the
// class probabilities. Images (a file, or a folder of them) and a text model's .txt files (a file,
// or a flat folder of them) get the file's path first in each row.
#include <cstdio>
#include <iostream>

#include "cli_args.h"
#include "commands.h"
#include "data/data_source.h"
#include "data_request.h"
#include "io/atomic_file.h"
#include "model_input.h"
#include "output_files.h"
#include "split/model_predictions.h"

namespace skynnet::cli {
namespace {

const std::vector<OptionSpec>& predictOptionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--model", "MODEL", "the model file written by 'train --save' (a single or a combined model)"},
        {"--data", "PATH",
         "CSV/TSV (the target column may be absent), IDX images, an image file or a folder of images, a text folder "
         "(a subfolder of .txt files per class), a .txt file or a folder of them (text models), or builtin:..."},
        {"--labels", "PATH", "IDX labels file (default: the one beside the images)"},
        strictImagesSpec(),
        {"--text-column", "NAME", "CSV data of a text model: the column of the texts (default: the model's)"},
        {"--output", "FILE", "the predictions CSV to write"},
        {"--help", "", "show this help"},
    };
    return specs;
}

}  // namespace

int runPredict(const std::vector<std::string>& words) {
    const Args args = Args::parse(words, predictOptionSpecs());
    if (args.flag("--help")) {
        std::cout << "Usage: skynnet-cli predict --model MODEL --data PATH --output FILE\n\n"
                     "Writes one CSV row per sample: the predicted class and the probability of each class\n"
                     "(or the predicted values for regression), after a header row. For images (one file, or a\n"
                     "folder of them and of its subfolders) each row starts with the file's path; the images are\n"
                     "resized and converted to the model's size and channels, unreadable ones skipped with a "
                     "warning.\n"
                     "A text model also predicts on one .txt file, or on a folder of them (its own .txt files, one\n"
                     "text each, UTF-8), each row starting with the file's path.\n\n"
                  << formatOptions(predictOptionSpecs());
        return exitOk;
    }
    const DataRequest request = dataRequest(args);
    checkRequestUsage(request);
    const std::string modelPath = args.required("--model");
    const std::string outputPath = args.required("--output");
    checkOutputPaths({{"--output", outputPath}});

    LoadedModel model = loadTrainedModel(modelPath);
    const ModelPredictions predictions = predictData(model.model, model.saved, request);
    if (!predictions.warning.empty()) std::fprintf(stderr, "warning: %s\n", predictions.warning.c_str());
    writeFileAtomically(outputPath, predictionsCsv(model.saved, predictions));
    std::cout << "wrote " << predictions.outputs.rows() << " predictions to " << outputPath << "\n";
    return exitOk;
}

}  // namespace skynnet::cli
