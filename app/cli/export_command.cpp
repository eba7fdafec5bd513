// `skynnet-cli export`: a saved model (single or combined) in another form: a model file again
// (native), one ONNX graph from raw features to the combined answer (or one submodel's), or a
// self-contained C++ header. Every output is written atomically by the engine: an error leaves
// no file behind. A text model's ONNX graph takes token ids: its vocabulary (the tokenizer rule,
// maxLength and the tokens) goes beside it as MODEL.vocab.json, so a client can encode texts alike.
#include <iostream>

#include "cli_args.h"
#include "commands.h"
#include "export/cpp_export.h"
#include "export/onnx_export.h"
#include "export/onnx_vocabulary.h"
#include "io/atomic_file.h"
#include "model_input.h"
#include "output_files.h"

namespace skynnet::cli {
namespace {

const std::vector<OptionSpec>& exportOptionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--model", "MODEL", "the model file written by 'train --save' (a single or a combined model)"},
        {"--format", "F", "native (a model file), onnx or cpp (a C++17 header)"},
        {"--out", "PATH", "the file to write"},
        {"--submodel", "I", "onnx: export submodel I (1-based) on its own instead of the combined model"},
        {"--opset", "V", "onnx: the opset version, 13 to 17 (default 13)"},
        {"--namespace", "NAME", "cpp: the namespace of the generated code (default skynnet_model)"},
        {"--help", "", "show this help"},
    };
    return specs;
}

// The file as it was read: a single network stays a single-network file.
void saveNative(const std::string& path, const SavedCombinedModel& m) {
    if (!m.fromSingleFile) {
        saveCombinedModel(path, m);
        return;
    }
    SavedModel single;
    single.schema = m.schema;
    single.schema.task = m.task();
    single.spec = m.specs.front();
    single.weights = m.weights.front();
    single.preprocessing = m.preprocessing;
    single.extra = m.extra;
    saveModel(path, single);
}

}  // namespace

int runExport(const std::vector<std::string>& words) {
    const Args args = Args::parse(words, exportOptionSpecs());
    if (args.flag("--help")) {
        std::cout << "Usage: skynnet-cli export --model MODEL --format native|onnx|cpp --out PATH [options]\n\n"
                     "Every form takes raw feature columns, as the model file does, and gives the model's answer:\n"
                     "class probabilities, a binary model's probability of the second class, or regression values.\n\n"
                  << formatOptions(exportOptionSpecs());
        return exitOk;
    }
    const std::string modelPath = args.required("--model");
    const std::string format = args.required("--format");
    const std::string out = args.required("--out");
    if (format != "native" && format != "onnx" && format != "cpp")
        Args::fail("--format", "expected native, onnx or cpp, got '" + format + "'");
    for (const char* onnxOnly : {"--submodel", "--opset"})
        if (args.has(onnxOnly) && format != "onnx") Args::fail(onnxOnly, "only applies to --format onnx");
    if (args.has("--namespace") && format != "cpp") Args::fail("--namespace", "only applies to --format cpp");
    OnnxOptions onnx;
    onnx.opset = args.positiveInt("--opset", onnx.opset);
    const int submodel = args.positiveInt("--submodel", 0);
    CppExportOptions cpp;
    cpp.namespaceName = args.text("--namespace", cpp.namespaceName);
    checkOutputPaths({{"--out", out}});

    const LoadedModel model = loadTrainedModel(modelPath);
    const SavedCombinedModel& m = model.saved;
    if (submodel > m.submodelCount())
        Args::fail("--submodel", std::to_string(submodel) + " is not one of the model's " +
                                     std::to_string(m.submodelCount()) + " submodel" +
                                     (m.submodelCount() == 1 ? "" : "s"));
    std::string what = "the model";
    if (format == "native") {
        saveNative(out, m);
        what = "the model file";
    } else if (format == "onnx" && submodel > 0) {
        exportSubmodelOnnx(m, submodel - 1, out, onnx);
        what = "the ONNX graph of submodel " + std::to_string(submodel);
    } else if (format == "onnx") {
        exportOnnx(m, out, onnx);
        what = "the ONNX graph";
    } else {
        exportCppHeader(m, out, cpp);
        what = "the C++ header";
    }
    std::cout << "wrote " << what << " to " << out << " (model: " << modelDescription(model) << ")\n";
    if (format == "onnx")
        if (const std::string vocabulary = writeOnnxVocabulary(m.schema, out); !vocabulary.empty())
            std::cout << "wrote the vocabulary (token ids of the graph's input) to " << vocabulary << "\n";
    return exitOk;
}

}  // namespace skynnet::cli
