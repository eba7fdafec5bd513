#include "export/cpp_combination.h"

#include "core/error.h"
#include "export/cpp_class_groups.h"
#include "export/cpp_literals.h"

namespace skynnet {

void writeCppCombination(std::ostream& out, const SavedCombinedModel& m) {
    const std::size_t S = m.specs.size();
    const auto s = [](std::size_t i) { return "s" + std::to_string(i + 1); };
    switch (m.rule.strategy) {
    case Strategy::ClassGroups: writeCppClassGroups(out, m); return;  // cpp_class_groups.h
    case Strategy::BinaryShards:
        if (m.rule.binaryCombine == BinaryCombine::MostConfident) {
            out << "    // Binary shards: the most confident submodel (larger |2p - 1|, the first on a tie).\n"
                << "    const float* best = s1;\n";
            for (std::size_t i = 1; i < S; ++i)
                out << "    if (std::fabs(2.0f * " << s(i)
                    << "[0] - 1.0f) > std::fabs(2.0f * best[0] - 1.0f)) best = " << s(i) << ";\n";
            out << "    out[0] = best[0];\n";
            return;
        }
        [[fallthrough]];
    case Strategy::DataShards: {
        out << "    // The mean of the submodels' outputs.\n    for (int j = 0; j < kOutputs; ++j) out[j] = (";
        for (std::size_t i = 0; i < S; ++i) out << (i ? " + " : "") << s(i) << "[j]";
        out << ") / " << cppFloatLiteral(float(S)) << ";\n";
        return;
    }
    case Strategy::OutputSplit:
        out << "    // Output split: each submodel's columns side by side.\n";
        for (std::size_t i = 0; i < S; ++i)
            out << "    for (int j = 0; j < " << m.specs[i].outputs << "; ++j) out[" << m.rule.columns[i].first
                << " + j] = " << s(i) << "[j];\n";
        return;
    case Strategy::Auto: break;
    }
    throw Error("a combination rule needs a resolved strategy, not auto");
}

}  // namespace skynnet
