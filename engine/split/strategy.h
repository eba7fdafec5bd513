#pragma once
// The names of the Skynnet strategies and combination rules (method.md §2-§5), kept apart from the
// plan so that the combination code and the model file can use them without the planner.
#include <string>

namespace skynnet {

enum class Strategy { Auto, ClassGroups, BinaryShards, OutputSplit, DataShards };

// "auto", "class-groups", "binary-shards", "output-split", "data-shards".
std::string strategyName(Strategy s);
// The inverse of strategyName; throws Error naming the value and listing the accepted ones.
Strategy parseStrategy(const std::string& name);

// How binary shards are combined: the reference's "take the more confident submodel" (larger
// |p0 - p1|), or the average probability (method.md §3, beyond the reference).
enum class BinaryCombine { MostConfident, Average };

// "most-confident", "average".
std::string binaryCombineName(BinaryCombine c);
BinaryCombine parseBinaryCombine(const std::string& name);

}  // namespace skynnet
