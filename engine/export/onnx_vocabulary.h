#pragma once
// A text model's ONNX graph takes token ids; its vocabulary (the tokenizer rule, maxLength and the
// tokens, data/text_vocabulary.h) goes beside the graph as MODEL.vocab.json, so that a client
// encodes texts as the model was trained. Shared by `skynnet-cli export` and the app's export.
#include <string>

#include "data/model_schema.h"

namespace skynnet {

// model.onnx -> model.vocab.json; a name without .onnx gets .vocab.json added.
std::string onnxVocabularyPath(const std::string& onnxPath);

// For a text model (schema.isText()), writes its vocabulary atomically to
// onnxVocabularyPath(onnxPath) and returns that path; for other models writes nothing and returns
// "". Throws Error naming the file when it cannot be written.
std::string writeOnnxVocabulary(const ModelSchema& schema, const std::string& onnxPath);

}  // namespace skynnet
