#include "export/cpp_submodels.h"

#include <algorithm>

#include "core/error.h"
#include "export/cpp_layer_entries.h"
#include "export/cpp_literals.h"

namespace skynnet {
namespace {

std::string submodelRole(const SavedCombinedModel& m, std::size_t i) {
    switch (m.rule.strategy) {
    case Strategy::ClassGroups:
        return "classes " + cppJoinedInts(m.rule.classes[i]) + (m.rule.otherOutput ? " and 'other'" : "");
    case Strategy::OutputSplit:
        return "target columns " + std::to_string(m.rule.columns[i].first) + " to " +
               std::to_string(m.rule.columns[i].second - 1);
    case Strategy::BinaryShards:
    case Strategy::DataShards:
    case Strategy::Auto: break;  // validate() refuses auto before anything is written
    }
    return "shard " + std::to_string(i + 1) + " of " + std::to_string(m.specs.size());
}

// One submodel's arrays and table, layer after layer.
class SubmodelWriter {
public:
    SubmodelWriter(std::ostream& out, std::size_t index, const std::vector<float>& weights, Shape input,
                   CppScratch& scratch)
        : out_(out), index_(index), weights_(weights), sub_("kSub" + std::to_string(index + 1)), shape_(input),
          scratch_(scratch) {}

    // Comments the next layer, writes its arrays, adds its table entry and moves the shape on.
    void add(const LayerSpec& l, const std::string& label) {
        const Shape output = figures(l, shape_).output;
        out_ << "// layer " << ++layer_ << ": " << cppCommentText(label) << ", " << shape_.toString() << " -> "
             << output.toString() << "\n";
        const std::string entry = cppLayerEntry(l, shape_, [this](const std::string& part, std::size_t count) {
            return array(part, count);
        });
        // Batch norm, layer norm and activations over a sequence say so; the sequence kinds always do.
        const bool overSteps = shape_.sequence &&
                               (std::holds_alternative<BatchNormSpec>(l) || std::holds_alternative<LayerNormSpec>(l) ||
                                std::holds_alternative<ActivationSpec>(l));
        table_.push_back(overSteps ? "overSteps(" + entry + ")" : entry);
        scratch_.widest = std::max(scratch_.widest, std::int64_t(output.size()));
        scratch_.work = std::max(
            {scratch_.work, cppSequenceWorkFloats(l, shape_), cppTransformerWorkFloats(l, shape_)});
        if (shape_.sequence) scratch_.steps = std::max(scratch_.steps, std::int64_t(shape_.height));
        shape_ = output;
    }
    // Flatten only renames the shape: samples are rows of C*H*W values throughout.
    void flatten() { shape_ = Shape::flat(int(shape_.size())); }

    // The table, after checking every weight was used.
    void finish() {
        if (at_ != weights_.size()) throw Error("submodel " + std::to_string(index_ + 1) + " has weights left over");
        out_ << "inline constexpr Layer " << sub_ << "[" << table_.size() << "] = {\n    "
             << cppJoined(table_, ",\n    ") << "};\n";
    }

private:
    // Writes the next `count` weights as the array named for `part`; returns its name.
    std::string array(const std::string& part, std::size_t count) {
        const std::string name = sub_ + "Layer" + std::to_string(layer_) + part;
        const std::string where = "submodel " + std::to_string(index_ + 1) + " layer " + std::to_string(layer_);
        if (at_ + count > weights_.size()) throw Error(where + " has too few weights");
        writeCppFloats(out_, name, weights_.data() + at_, count, where + " " + part);
        at_ += count;
        return name;
    }

    std::ostream& out_;
    std::size_t index_;
    const std::vector<float>& weights_;
    std::string sub_;
    Shape shape_;
    CppScratch& scratch_;
    std::vector<std::string> table_;
    std::size_t at_ = 0;
    int layer_ = 0;
};

}  // namespace

CppScratch writeCppSubmodels(std::ostream& out, const SavedCombinedModel& m) {
    CppScratch scratch;
    for (std::size_t i = 0; i < m.specs.size(); ++i) {
        const NetworkSpec& spec = m.specs[i];
        out << "\n// ---- Submodel " << i + 1 << " of " << m.specs.size() << ": " << cppCommentText(submodelRole(m, i))
            << " (" << spec.outputs << " outputs)\n";
        SubmodelWriter writer(out, i, m.weights[i], spec.input, scratch);
        for (const LayerSpec& l : spec.layers) {
            if (std::holds_alternative<DropoutSpec>(l)) continue;  // the identity at inference
            if (std::holds_alternative<FlattenSpec>(l)) writer.flatten();
            else writer.add(l, description(l));
        }
        writer.add(spec.outputLayer(),
                   "output dense " + std::to_string(spec.outputs) + " " + activationName(spec.outputActivation));
        writer.finish();
        if (m.rule.strategy == Strategy::ClassGroups)
            out << "inline constexpr int kSub" << i + 1 << "Classes[" << m.rule.classes[i].size() << "] = {"
                << cppJoinedInts(m.rule.classes[i]) << "};\n";
    }
    return scratch;
}

}  // namespace skynnet
