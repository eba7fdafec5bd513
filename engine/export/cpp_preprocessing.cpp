#include "export/cpp_preprocessing.h"

#include "export/cpp_literals.h"

namespace skynnet {

void writeCppPreprocessing(std::ostream& out, const SavedCombinedModel& m, const std::vector<std::string>& rawNames) {
    const Preprocessing& p = m.preprocessing;
    out << "\n// ---- Preprocessing (" << (p.fitted() ? "scaling " + scalingName(p.scaling) : std::string("none"))
        << "): numeric columns x' = (x - offset) * scale, then categorical columns one-hot.\n";
    out << "inline constexpr int kInputColumns = " << m.inputColumns() << ";\n";
    if (!p.fitted()) {
        out << "inline void preprocess(const float* raw, float* x) {\n"
            << "    for (int j = 0; j < kInputColumns; ++j) x[j] = raw[j];\n}\n";
        return;
    }
    const std::size_t n = p.numericColumns.size();
    if (n > 0) {
        std::vector<std::string> cols;
        for (int c : p.numericColumns) cols.push_back(std::to_string(c));
        out << "inline constexpr int kNumericColumns[" << n << "] = {" << cppJoined(cols) << "};\n";
        writeCppFloats(out, "kOffset", p.offset.data(), n, "preprocessing offset");
        writeCppFloats(out, "kScale", p.scale.data(), n, "preprocessing scale");
    }
    out << "inline void preprocess(const float* raw, float* x) {\n";
    if (n > 0)
        out << "    for (int j = 0; j < " << n << "; ++j) x[j] = (raw[kNumericColumns[j]] - kOffset[j]) * kScale[j];\n";
    std::size_t at = n;
    for (const auto& c : p.oneHot) {
        if (c.categories.empty()) continue;
        const std::string name = std::size_t(c.column) < rawNames.size() ? rawNames[std::size_t(c.column)]
                                                                         : "column " + std::to_string(c.column);
        out << "    oneHot(raw[" << c.column << "], " << c.categories.size() << ", x + " << at << ");  // "
            << cppCommentText(name + ": " + cppJoined(c.categories)) << "\n";
        at += c.categories.size();
    }
    out << "}\n";
}

}  // namespace skynnet
