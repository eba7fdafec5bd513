#include "project/checkpoint_file.h"

#include "core/error.h"
#include "io/container.h"
#include "io/gemm_routing_file.h"
#include "io/json_fields.h"
#include "project/project_json.h"

namespace skynnet {
namespace {

std::span<const float> spanOf(const Matrix& m) { return {m.data(), std::size_t(m.size())}; }

Json stateToJson(const TrainerState& s, BlockWriter& blocks) {
    Json rng = Json::object({{"s", Json::array()},
                             {"seed", unsignedToJson(s.shuffleRng.seed)},
                             {"hasSpare", s.shuffleRng.hasSpare},
                             {"spare", numberToJson(s.shuffleRng.spare)}});
    for (std::uint64_t v : s.shuffleRng.s) rng["s"].push_back(unsignedToJson(v));
    Json lists = Json::array();
    for (const auto& list : s.optimizer.lists) {
        Json matrices = Json::array();
        for (const Matrix& m : list)
            matrices.push_back(
                Json::object({{"rows", m.rows()}, {"cols", m.cols()}, {"block", blocks.add(spanOf(m))}}));
        lists.push_back(std::move(matrices));
    }
    Json history = Json::array();
    for (const auto& e : s.history) history.push_back(toJson(e));
    return Json::object({{"epochsDone", s.epochsDone},
                         {"steps", unsignedToJson(s.steps)},
                         {"shuffleRng", std::move(rng)},
                         {"optimizer", Json::object({{"steps", s.optimizer.steps}, {"lists", std::move(lists)}})},
                         {"bestScore", numberToJson(s.bestScore)},
                         {"sinceBest", s.sinceBest},
                         {"bestWeightsBlock", s.bestWeights.empty() ? -1 : blocks.add(s.bestWeights)},
                         {"history", std::move(history)},
                         {"bestEpoch", s.bestEpoch},
                         {"wallSeconds", s.wallSeconds},
                         {"cpuSeconds", s.cpuSeconds},
                         {"peakModelBytes", s.peakModelBytes}});
}

TrainerState stateFromJson(const JsonField& j, BlockReader& blocks, Network& network) {
    TrainerState s;
    s.epochsDone = intAtLeast(j.at("epochsDone"), 0);
    s.steps = unsignedFromJson(j.at("steps"));
    const JsonField rng = j.at("shuffleRng");
    const JsonField words = rng.at("s");
    if (words.size() != 4) words.fail("must hold 4 numbers");
    for (std::size_t i = 0; i < 4; ++i) s.shuffleRng.s[i] = unsignedFromJson(words.at(i));
    s.shuffleRng.seed = unsignedFromJson(rng.at("seed"));
    s.shuffleRng.hasSpare = rng.at("hasSpare").asBool();
    s.shuffleRng.spare = numberFromJson(rng.at("spare"));
    const JsonField opt = j.at("optimizer");
    s.optimizer.steps = opt.at("steps").asInt64();
    if (s.optimizer.steps < 0) opt.at("steps").fail("must not be negative");
    // Shapes are checked against the network here, so a damaged file is refused with its name
    // before a Trainer ever sees it.
    const std::vector<Param> params = network.params();
    for (const JsonField& list : opt.at("lists").asArray()) {
        std::vector<Matrix> matrices;
        const auto items = list.asArray();
        if (!items.empty() && items.size() != params.size())
            list.fail("must hold " + std::to_string(params.size()) + " matrices, one per parameter, not " +
                      std::to_string(items.size()));
        for (std::size_t p = 0; p < items.size(); ++p) {
            const JsonField& m = items[p];
            const Index rows = params[p].value->rows(), cols = params[p].value->cols();
            if (m.at("rows").asInt64() != rows || m.at("cols").asInt64() != cols)
                m.fail("must be a " + std::to_string(rows) + "x" + std::to_string(cols) + " matrix");
            const std::vector<float> values = blocks.take(m.at("block"), std::int64_t(rows) * cols);
            Matrix x(rows, cols);
            std::copy(values.begin(), values.end(), x.data());
            matrices.push_back(std::move(x));
        }
        s.optimizer.lists.push_back(std::move(matrices));
    }
    s.bestScore = numberFromJson(j.at("bestScore"));
    s.sinceBest = intAtLeast(j.at("sinceBest"), 0);
    const JsonField best = j.at("bestWeightsBlock");
    if (best.asInt64() >= 0) s.bestWeights = blocks.take(best, network.weightCount());
    for (const JsonField& e : j.at("history").asArray()) s.history.push_back(epochStatsFromJson(e));
    if (int(s.history.size()) != s.epochsDone)
        j.at("history").fail("must hold one entry per epoch done (" + std::to_string(s.epochsDone) + ")");
    s.bestEpoch = intAtLeast(j.at("bestEpoch"), 0);
    s.wallSeconds = j.at("wallSeconds").asDouble();
    s.cpuSeconds = j.at("cpuSeconds").asDouble();
    s.peakModelBytes = j.at("peakModelBytes").asInt64();
    return s;
}

}  // namespace

Json toJson(const CheckpointRunKey& k) {
    return Json::object({{"plan", k.plan}, {"config", k.config}, {"data", k.data}});
}

std::string checkpointKeyDifferences(const CheckpointRunKey& a, const CheckpointRunKey& b) {
    std::vector<std::string> what;
    if (a.plan != b.plan) what.push_back("the split plan");
    if (a.config != b.config) what.push_back("the training settings");
    if (a.data != b.data) what.push_back("the training data");
    std::string text;
    for (std::size_t i = 0; i < what.size(); ++i)
        text += (i == 0 ? "" : i + 1 == what.size() ? " and " : ", ") + what[i];
    return text + (what.size() == 1 ? " differs" : " differ");
}

CheckpointRunKey checkpointRunKeyFromJson(const JsonField& j) {
    return {j.at("plan").asString(), j.at("config").asString(), j.at("data").asString()};
}

void saveCheckpointFile(const std::string& path, const CheckpointRunKey& key, int index, const SubmodelResume& r) {
    BlockWriter blocks;
    Json h = Json::object({{"kind", "checkpoint"},
                           {"run", toJson(key)},
                           {"submodel", index + 1},
                           {"finished", r.finished},
                           {"weightsBlock", blocks.add(r.weights)},
                           {"gemmRoutes", gemmRoutesUsedJson()}});
    if (r.finished) h["result"] = toJson(r.result);
    else h["state"] = stateToJson(r.state, blocks);
    saveModelFile(path, h, blocks.blocks());
}

SubmodelResume loadCheckpointFile(const std::string& path, const CheckpointRunKey& key, int index, Network& network) {
    ModelFileContents file = loadModelFile(path);
    const JsonField h = file.headerField();
    (void)h.asObject();
    if (h.value("kind", std::string()) != "checkpoint") throw Error(path + " is not a Skynnet checkpoint file");
    const CheckpointRunKey saved = checkpointRunKeyFromJson(h.at("run"));
    if (saved != key) throw Error(path + " is from another run: " + checkpointKeyDifferences(saved, key));
    if (h.at("submodel").asInt64() != index + 1)
        h.at("submodel").fail("must be " + std::to_string(index + 1) + " (the file's name)");
    // Checkpoints of earlier versions hold no routes: nothing to compare.
    if (const auto routes = h.find("gemmRoutes")) requireSameGemmRoutes(*routes, path);
    BlockReader blocks(std::move(file.blocks));
    SubmodelResume r;
    r.finished = h.at("finished").asBool();
    r.weights = blocks.take(h.at("weightsBlock"), network.weightCount());
    if (r.finished) {
        r.result = trainResultFromJson(h.at("result"));
        if (r.result.status != TrainStatus::Completed && r.result.status != TrainStatus::EarlyStopped)
            h.at("result").at("status").fail("must be completed or early_stopped for a finished submodel");
    } else {
        r.state = stateFromJson(h.at("state"), blocks, network);
    }
    return r;
}

}  // namespace skynnet
