#include "split/combined_model_file.h"
#include "io/json_fields.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <span>

#include "core/error.h"
#include "data/model_schema_json.h"
#include "io/container.h"
#include "model/network.h"

namespace skynnet {
namespace {

[[noreturn]] void failIn(const std::string& context, const std::string& what) { throw Error(context + ": " + what); }

std::string field(const char* name, std::size_t i) { return std::string(name) + "[" + std::to_string(i) + "]"; }

// What each submodel must output under the rule (throws naming the rule's field when malformed).
std::vector<int> expectedOutputs(const CombinationRule& r, std::size_t submodels, const std::string& context) {
    const auto fail = [&](const std::string& what) { failIn(context, what); };
    std::vector<int> outs(submodels, r.outputs);
    switch (r.strategy) {
    case Strategy::Auto: failIn(context, "combination.strategy must be a resolved strategy, not auto");
    case Strategy::ClassGroups:
        if (r.task != Task::Classification) fail("combination.strategy class-groups needs a classification task");
        if (r.classes.size() != submodels)
            fail("combination.classes has " + std::to_string(r.classes.size()) + " entries for " +
                 std::to_string(submodels) + " submodels");
        for (std::size_t i = 0; i < submodels; ++i) {
            const auto& cs = r.classes[i];
            if (cs.empty()) fail(field("combination.classes", i) + " is empty");
            for (std::size_t k = 0; k < cs.size(); ++k) {
                if (cs[k] < 0 || cs[k] >= r.outputs)
                    fail(field(field("combination.classes", i).c_str(), k) + " is class " + std::to_string(cs[k]) +
                         ", outside the " + std::to_string(r.outputs) + " classes");
                if (k > 0 && cs[k] <= cs[k - 1])
                    fail(field("combination.classes", i) + " must list classes in ascending order, once each");
            }
            outs[i] = int(cs.size()) + (r.otherOutput ? 1 : 0);
        }
        if (r.classCombine == ClassCombine::Stacked && !r.stacked)
            fail("combination.classCombine is stacked, but there are no combination.stacked weights");
        if (r.stacked) {
            const int features = stackedFeatureCount(r.classes, r.otherOutput);
            if (r.stacked->classes != r.outputs || r.stacked->features != features)
                fail("combination.stacked has weights for " + std::to_string(r.stacked->classes) + " classes x " +
                     std::to_string(r.stacked->features) + " submodel outputs, the rule has " +
                     std::to_string(r.outputs) + " x " + std::to_string(features));
        }
        break;
    case Strategy::OutputSplit: {
        if (!predictsValues(r.task))
            fail("combination.strategy output-split needs a regression or reconstruction task");
        if (r.columns.size() != submodels)
            fail("combination.columns has " + std::to_string(r.columns.size()) + " entries for " +
                 std::to_string(submodels) + " submodels");
        int next = 0;  // chunks are contiguous, in submodel order, and cover every output column
        for (std::size_t i = 0; i < submodels; ++i) {
            const auto [begin, end] = r.columns[i];
            if (begin != next || end <= begin || end > r.outputs)
                fail(field("combination.columns", i) + " is [" + std::to_string(begin) + ", " + std::to_string(end) +
                     "), expected a chunk starting at column " + std::to_string(next) + " within the " +
                     std::to_string(r.outputs) + " outputs");
            next = end;
            outs[i] = end - begin;
        }
        if (next != r.outputs)
            fail("combination.columns cover " + std::to_string(next) + " of the " + std::to_string(r.outputs) +
                 " outputs");
        break;
    }
    case Strategy::BinaryShards:
        if (r.task != Task::Binary) fail("combination.strategy binary-shards needs a binary task");
        [[fallthrough]];
    case Strategy::DataShards:
        if (r.task == Task::Binary && r.outputs != 1) fail("combination.outputs must be 1 for a binary task");
        break;
    }
    return outs;
}

}  // namespace

Json ruleToJson(const CombinationRule& r) {
    Json j = Json::object({{"strategy", strategyName(r.strategy)}, {"outputs", r.outputs}});
    switch (r.strategy) {
    case Strategy::ClassGroups: {
        Json classes = Json::array();
        for (const auto& cs : r.classes) classes.push_back(Json(cs));
        j["classes"] = std::move(classes);
        j["classCombine"] = classCombineName(r.classCombine);
        j["otherOutput"] = r.otherOutput;
        if (r.stacked) j["stacked"] = stackedToJson(*r.stacked);  // absent otherwise: older files stay byte-identical
        break;
    }
    case Strategy::OutputSplit: {
        Json columns = Json::array();
        for (const auto& [begin, end] : r.columns) columns.push_back(Json::array({begin, end}));
        j["columns"] = std::move(columns);
        break;
    }
    case Strategy::BinaryShards: j["binaryCombine"] = binaryCombineName(r.binaryCombine); break;
    case Strategy::DataShards:
    case Strategy::Auto: break;
    }
    return j;
}

CombinationRule ruleFromJson(const JsonField& j, Task task) {
    CombinationRule r;
    r.task = task;
    r.strategy = parseNamed(j.at("strategy"), parseStrategy);
    if (r.strategy == Strategy::Auto) j.at("strategy").fail("must be a resolved strategy, not auto");
    r.outputs = intAtLeast(j.at("outputs"), 1);
    switch (r.strategy) {
    case Strategy::ClassGroups:
        for (const JsonField& cs : j.at("classes").asArray()) r.classes.push_back(cs.get<std::vector<int>>());
        // Files written before the rules and the "other" output existed: the product, no "other".
        if (j.contains("classCombine")) r.classCombine = parseNamed(j.at("classCombine"), parseClassCombine);
        if (j.contains("otherOutput")) r.otherOutput = j.at("otherOutput").get<bool>();
        if (const auto w = j.find("stacked"); w && !w->isNull()) r.stacked = stackedFromJson(*w);
        break;
    case Strategy::OutputSplit:
        for (const JsonField& c : j.at("columns").asArray()) {
            if (!c.isArray() || c.size() != 2) c.fail("must be a [first, end) pair of column indices");
            r.columns.emplace_back(c.at(std::size_t(0)).get<int>(), c.at(std::size_t(1)).get<int>());
        }
        break;
    case Strategy::BinaryShards: r.binaryCombine = parseNamed(j.at("binaryCombine"), parseBinaryCombine); break;
    case Strategy::DataShards:
    case Strategy::Auto: break;  // refused above
    }
    return r;
}

Json stackedToJson(const StackedWeights& w) {
    Json rows = Json::array();
    for (int c = 0; c < w.classes; ++c) {
        const auto begin = w.weights.begin() + std::ptrdiff_t(c) * w.features;
        rows.push_back(Json(std::vector<double>(begin, begin + w.features)));
    }
    return Json::object({{"weights", std::move(rows)}, {"bias", Json(w.bias)}});
}

StackedWeights stackedFromJson(const JsonField& j) {
    StackedWeights w;
    const auto numbers = [](const JsonField& list, std::vector<double>& into) {
        for (const JsonField& v : list.asArray()) {
            const double d = v.asDouble();
            if (!std::isfinite(d)) v.fail("must be a finite number");
            into.push_back(d);
        }
    };
    const JsonField rows = j.at("weights");
    for (const JsonField& row : rows.asArray()) {
        const std::size_t before = w.weights.size();
        numbers(row, w.weights);
        const int width = int(w.weights.size() - before);
        if (w.classes == 0) w.features = width;
        else if (width != w.features)
            row.fail("has " + std::to_string(width) + " weights, the first row " + std::to_string(w.features));
        ++w.classes;
    }
    if (w.classes == 0 || w.features == 0) rows.fail("must hold one row of weights per class");
    const JsonField bias = j.at("bias");
    numbers(bias, w.bias);
    if (int(w.bias.size()) != w.classes)
        bias.fail("has " + std::to_string(w.bias.size()) + " entries for " + std::to_string(w.classes) + " classes");
    return w;
}

namespace {

SavedCombinedModel combinedFromFile(ModelFileContents& file, const std::string& path) {
    const JsonField h = file.headerField();
    SavedCombinedModel m;
    const Task task = parseNamed(h.at("task"), parseTask);
    m.rule = ruleFromJson(h.at("combination"), task);
    m.loss = h.contains("loss") ? parseNamed(h.at("loss"), parseLoss) : defaultLoss(task);
    const JsonField& subs = h.at("submodels");
    if (subs.asArray().empty()) subs.fail("must list at least one submodel");
    std::vector<bool> used(file.blocks.size(), false);
    for (const JsonField& s : subs.asArray()) {
        m.specs.push_back(networkSpecFromJson(s.at("network")));
        const JsonField& block = s.at("weightsBlock");
        const int b = block.isInteger() ? block.get<int>() : -1;
        if (b < 0 || std::size_t(b) >= file.blocks.size())
            block.fail("must be the index of one of the file's " + std::to_string(file.blocks.size()) + " data blocks");
        if (used[std::size_t(b)]) block.fail("names a data block another submodel already uses");
        used[std::size_t(b)] = true;
        m.weights.push_back(std::move(file.blocks[std::size_t(b)]));
    }
    m.preprocessing = preprocessingFromJson(h.at("preprocessing"));
    m.schema = readSchemaFields(h, m.preprocessing, m.specs.front().input, task);
    m.extra = h.value("extra", Json());
    validate(m, path);
    return m;
}

const std::string& kindOf(const ModelFileContents& file) {
    const JsonField h = file.headerField();
    (void)h.asObject();  // throws "<path>: the top-level value must be an object, ..."
    return h.at("kind").asString();
}

}  // namespace

int SavedCombinedModel::inputColumns() const {
    if (preprocessing.fitted()) return preprocessing.outputColumns();
    return specs.empty() ? 0 : int(specs.front().input.size());
}

int SavedCombinedModel::rawColumns() const {
    return preprocessing.fitted() ? preprocessing.rawColumns : inputColumns();
}

SavedCombinedModel toSaved(const CombinedModel& model, const Preprocessing& preprocessing, const ModelSchema& schema) {
    SavedCombinedModel m;
    m.rule = model.rule();
    m.loss = model.loss();
    for (const Network& n : model.submodels()) {
        m.specs.push_back(n.spec());
        m.weights.push_back(n.flatWeights());
    }
    m.preprocessing = preprocessing;
    m.schema = schema;
    return m;
}

SavedCombinedModel asCombined(const SavedModel& single) {
    SavedCombinedModel m;
    m.rule.strategy = Strategy::DataShards;  // the mean of one output is that output, bit for bit
    m.rule.task = single.schema.task;
    m.rule.outputs = single.spec.outputs;
    m.loss = defaultLoss(single.schema.task);
    // A reconstruction network's output says its loss: a sigmoid's is binary cross-entropy, a linear one's MSE.
    if (single.schema.task == Task::Reconstruction && single.spec.outputActivation != Activation::Sigmoid)
        m.loss = LossKind::MeanSquaredError;
    m.specs = {single.spec};
    m.weights = {single.weights};
    m.preprocessing = single.preprocessing;
    m.schema = single.schema;
    m.extra = single.extra;
    m.fromSingleFile = true;
    return m;
}

CombinedModel buildCombinedModel(const SavedCombinedModel& m) {
    validate(m, "combined model");
    std::vector<Network> nets;
    for (std::size_t i = 0; i < m.specs.size(); ++i) {
        nets.emplace_back(m.specs[i], 1);  // the seed is irrelevant: every weight is overwritten
        nets.back().setFlatWeights(m.weights[i]);
    }
    return CombinedModel(m.rule, std::move(nets), m.loss);
}

Matrix predictRaw(CombinedModel& model, const SavedCombinedModel& m, const Matrix& raw) {
    return model.predict(m.preprocessing.fitted() ? m.preprocessing.apply(raw) : raw);
}

Matrix predictRaw(CombinedModel& model, const SavedCombinedModel& m, const Matrix& raw, const CancelToken* cancel,
                  const std::function<void(double fraction)>& progress) {
    Matrix scaled;
    if (m.preprocessing.fitted()) scaled = m.preprocessing.apply(raw);
    const Matrix& x = m.preprocessing.fitted() ? scaled : raw;
    const double total = double(x.rows()) * double(model.submodelCount());
    double done = 0;
    if (progress) progress(0.0);  // the rows are ready: predicting begins
    std::vector<Matrix> outs;
    for (int i = 0; i < model.submodelCount(); ++i) {
        Network& net = model.submodel(i);
        // Whole chunks per slice, so every chunk holds the rows it holds in one predict over all
        // of them: the same bits as CombinedModel::predict.
        const Index slice = 8 * net.predictChunkRows();
        Matrix out(x.rows(), net.spec().outputs);
        for (Index start = 0; start < x.rows(); start += slice) {
            const Index n = std::min(slice, x.rows() - start);
            Matrix part = net.predict(x.middleRows(start, n), cancel);
            if (cancel && cancel->cancelled()) return Matrix();
            out.middleRows(start, n) = part;
            done += double(n);
            if (progress) progress(done / total);
        }
        outs.push_back(std::move(out));
    }
    return combine(outs, model.rule());
}

void validate(const SavedCombinedModel& m, const std::string& context) {
    const auto fail = [&](const std::string& what) { failIn(context, what); };
    if (m.specs.empty()) fail("submodels: a combined model needs at least one submodel");
    if (m.weights.size() != m.specs.size())
        fail("submodels: " + std::to_string(m.weights.size()) + " weight blocks for " + std::to_string(m.specs.size()) +
             " networks");
    if (m.rule.outputs < 1) fail("combination.outputs must be at least 1");
    const std::vector<int> outs = expectedOutputs(m.rule, m.specs.size(), context);
    const Index inputs = m.inputColumns();
    for (std::size_t i = 0; i < m.specs.size(); ++i) {
        const std::string sub = field("submodels", i);
        const NetworkSpec& s = m.specs[i];
        if (s.outputs != outs[i])
            fail(sub + ".network.outputs is " + std::to_string(s.outputs) + ", but the " +
                 strategyName(m.rule.strategy) + " rule gives submodel " + std::to_string(i + 1) + " " +
                 std::to_string(outs[i]) + " outputs");
        if (s.input.size() != inputs)
            fail(sub + ".network.input has " + std::to_string(s.input.size()) + " values, but the " +
                 (m.preprocessing.fitted() ? "preprocessing gives " : "first network takes ") + std::to_string(inputs));
        // Parameters and state: files written before state existed have none.
        const std::int64_t needed = weightCountUpTo(s, INT64_MAX / 2);
        if (needed != std::int64_t(m.weights[i].size()))
            fail(sub + ".weightsBlock holds " + std::to_string(m.weights[i].size()) + " weights, the network has " +
                 weightCountText(s));
    }
    const auto names = [&](const std::vector<std::string>& list, std::size_t expected, const char* key) {
        if (!list.empty() && list.size() != expected)
            fail(std::string(key) + " has " + std::to_string(list.size()) + " names for a " + taskName(m.task()) +
                 " model expecting " + std::to_string(expected));
    };
    switch (m.task()) {
    case Task::Classification: names(m.schema.classNames, std::size_t(m.rule.outputs), "classNames"); break;
    case Task::Binary: names(m.schema.classNames, 2, "classNames"); break;
    case Task::Regression:
    case Task::Reconstruction: names(m.schema.targetNames, std::size_t(m.rule.outputs), "targetNames"); break;
    }
}

void saveCombinedModel(const std::string& path, const SavedCombinedModel& m) {
    validate(m, "cannot save " + path);
    Json subs = Json::array();
    std::vector<std::span<const float>> blocks;
    for (std::size_t i = 0; i < m.specs.size(); ++i) {
        subs.push_back(Json::object({{"network", toJson(m.specs[i])}, {"weightsBlock", i}}));
        blocks.emplace_back(m.weights[i]);
    }
    Json h = Json::object({{"kind", "combined"},
                           {"task", taskName(m.task())},
                           {"loss", lossName(m.loss)},
                           {"combination", ruleToJson(m.rule)},
                           {"submodels", std::move(subs)},
                           {"preprocessing", toJson(m.preprocessing)}});
    writeSchemaFields(h, m.schema, m.extra);
    saveModelFile(path, h, blocks);
}

SavedCombinedModel loadCombinedModel(const std::string& path) {
    ModelFileContents file = loadModelFile(path);
    const std::string& kind = kindOf(file);
    if (kind != "combined") throw Error(path + " holds a model of kind '" + kind + "', not a combined model");
    return combinedFromFile(file, path);
}

SavedCombinedModel loadAnyModel(const std::string& path) {
    ModelFileContents file = loadModelFile(path);
    const std::string& kind = kindOf(file);
    if (kind == "combined") return combinedFromFile(file, path);
    // Read again through loadModel, the one reader of that format (its checks stay in one place).
    if (kind == "single") return asCombined(loadModel(path));
    throw Error(path + " holds a model of kind '" + kind +
                "', which this build cannot load (expected single or combined)");
}

}  // namespace skynnet
