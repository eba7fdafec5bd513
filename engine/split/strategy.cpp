#include "split/strategy.h"

#include "core/error.h"

namespace skynnet {

std::string strategyName(Strategy s) {
    switch (s) {
    case Strategy::Auto: return "auto";
    case Strategy::ClassGroups: return "class-groups";
    case Strategy::BinaryShards: return "binary-shards";
    case Strategy::OutputSplit: return "output-split";
    case Strategy::DataShards: return "data-shards";
    }
    return "auto";
}

Strategy parseStrategy(const std::string& name) {
    for (Strategy s :
         {Strategy::Auto, Strategy::ClassGroups, Strategy::BinaryShards, Strategy::OutputSplit, Strategy::DataShards})
        if (name == strategyName(s)) return s;
    throw Error("unknown split strategy '" + name +
                "' (expected auto, class-groups, binary-shards, output-split or data-shards)");
}

std::string binaryCombineName(BinaryCombine c) { return c == BinaryCombine::Average ? "average" : "most-confident"; }

BinaryCombine parseBinaryCombine(const std::string& name) {
    if (name == "most-confident") return BinaryCombine::MostConfident;
    if (name == "average") return BinaryCombine::Average;
    throw Error("unknown binary combination '" + name + "' (expected most-confident or average)");
}

}  // namespace skynnet
