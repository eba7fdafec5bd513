#pragma once
// Export of a saved (combined) model as one self-contained C++17 header: the weights as constexpr
// float arrays, and inline predict functions that apply the preprocessing, every submodel's layers
// (dense, conv, max and average pooling, global average pooling, batch norm in its inference form,
// the activations, the sequence kinds embedding, gru, lstm and seqpool of cpp_sequence_layers.h,
// and the transformer kinds patch, layernorm, attention and encoder of cpp_transformer_layers.h),
// and the combination rule, with nothing beyond the standard library.
// Sequences are rows of steps x features, step-major; token ids are floats (exact below 2^24), as
// Skynnet's raw rows hold them. A text model's header (its schema holds a vocabulary) also holds the
// tokenizer and the vocabulary (cpp_text_tokenizer.h), so that a client can predict on a string.
// The generated code is data plus short loops (never unrolled), commented with the submodel and
// layer each array belongs to, so it stays readable and compiles quickly. It computes what
// CombinedModel computes from raw features, to float rounding. Generated API, in the namespace
// chosen (default skynnet_model):
//   constexpr int kRawColumns, kOutputs;  const char* const kOutputNames[kOutputs];
//   void predict(const float* rawFeatures, float* out);                        // one sample
//   void predict(const float* rawFeatures, std::size_t samples, float* out);   // row-major rows
//   bool predict(std::string_view text, float* out);  // text models: false if not UTF-8
#include <string>

#include "split/combined_model_file.h"

namespace skynnet {

struct CppExportOptions {
    std::string namespaceName = "skynnet_model";  // a C++ identifier, or nested: "acme::models"
};

// The header's text. Throws Error if the model is inconsistent, a weight is not finite, or the
// namespace is not a valid C++ name.
std::string cppHeaderText(const SavedCombinedModel& model, const CppExportOptions& options = {});
// Writes it atomically. Throws Error naming the path.
void exportCppHeader(const SavedCombinedModel& model, const std::string& path, const CppExportOptions& options = {});

}  // namespace skynnet
