#pragma once
// The "SKYNNET model" container: a JSON header describing the content plus float32 blocks for the
// bulk numbers (weights). The container knows nothing about networks; spec_json.h gives the
// header its meaning. Layout, all integers little-endian:
//   "SKYNNETM"  uint32 format version  uint64 header bytes  header (UTF-8 JSON)
//   uint64 block count  { uint64 element count  float32 elements }*  uint32 CRC-32 of all before
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "io/json.h"

namespace skynnet {

inline constexpr std::uint32_t modelFileFormatVersion = 1;

struct ModelFileContents {
    Json header;
    std::vector<std::vector<float>> blocks;
    std::string sourceName;  // the path it was loaded from, for the header's error messages
    JsonField headerField() const { return JsonField(header, sourceName); }
};

// Atomic: a failed save leaves any existing file untouched. Throws Error naming the path.
void saveModelFile(const std::string& path, const ModelFileContents& contents);
// The same without copying the blocks into a ModelFileContents first (large weight vectors).
void saveModelFile(const std::string& path, const Json& header, const std::vector<std::span<const float>>& blocks);
// Throws Error: "<path> is not a Skynnet model file", "... was written by a newer Skynnet (format
// 7, this build reads up to 1)", "... is truncated", "... is damaged (checksum mismatch)". Every
// length is checked against the file's size before anything is allocated.
ModelFileContents loadModelFile(const std::string& path);

}  // namespace skynnet
