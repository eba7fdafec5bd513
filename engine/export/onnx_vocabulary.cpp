#include "export/onnx_vocabulary.h"

#include "io/atomic_file.h"
#include "io/json.h"

namespace skynnet {

std::string onnxVocabularyPath(const std::string& onnxPath) {
    const std::string ext = ".onnx";
    const bool hasExt = onnxPath.size() > ext.size() &&
                        onnxPath.compare(onnxPath.size() - ext.size(), ext.size(), ext) == 0;
    return (hasExt ? onnxPath.substr(0, onnxPath.size() - ext.size()) : onnxPath) + ".vocab.json";
}

std::string writeOnnxVocabulary(const ModelSchema& schema, const std::string& onnxPath) {
    if (!schema.isText()) return {};
    const std::string path = onnxVocabularyPath(onnxPath);
    writeFileAtomically(path, dumpJson(toJson(*schema.vocabulary)) + "\n");
    return path;
}

}  // namespace skynnet
