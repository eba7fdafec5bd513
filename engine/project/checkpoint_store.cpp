#include "project/checkpoint_store.h"

#include <xxhash.h>

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "core/error.h"
#include "data/dataset.h"
#include "io/atomic_file.h"
#include "io/json_fields.h"
#include "project/latest_write_queue.h"
#include "project/project_json.h"

namespace skynnet {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRunFile = "run.json";
constexpr int kFormatVersion = 1;

class Hash {
public:
    Hash() : state_(XXH64_createState(), XXH64_freeState) {
        if (!state_ || XXH64_reset(state_.get(), 0) != XXH_OK) throw Error("cannot hash the run (out of memory)");
    }
    void add(const void* data, std::size_t size) { XXH64_update(state_.get(), data, size); }
    void add(const std::string& text) { add(text.c_str(), text.size() + 1); }  // with its terminating zero
    void add(const Matrix& m) {
        const Index shape[2] = {m.rows(), m.cols()};
        add(shape, sizeof shape);
        add(m.data(), std::size_t(m.size()) * sizeof(Scalar));
    }
    std::string hex() const {
        char text[17];
        std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(XXH64_digest(state_.get())));
        return text;
    }

private:
    std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)> state_;
};

void hashDataset(Hash& h, const Dataset& d) {
    h.add(d.features);
    h.add(d.targetMatrix());
}

std::string runFilePath(const std::string& folder) { return (fs::path(folder) / kRunFile).string(); }

bool isRunFile(const fs::path& p) {
    const std::string name = p.filename().string();
    return name == kRunFile || (name.rfind("submodel-", 0) == 0 && p.extension() == ".ckpt");
}

// The run's own files only: a folder the user pointed at may hold other things.
void removeRunFiles(const std::string& folder) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec))
        if (entry.is_regular_file(ec) && isRunFile(entry.path())) fs::remove(entry.path(), ec);
}

}  // namespace

SplitPlan singleNetworkPlan(const NetworkSpec& spec, std::uint64_t seed, int epochs, Task task, long samples) {
    SplitPlan p;
    p.task = task;
    p.epochs = p.effectiveEpochs = epochs;
    p.outputs = spec.outputs;
    p.samples = samples;
    p.seed = seed;
    p.original = spec;
    SubmodelPlan sp;
    sp.spec = spec;
    sp.seed = seed;
    sp.role = "the network";
    p.submodels.push_back(std::move(sp));
    return p;
}

CheckpointRunKey checkpointRunKey(const SplitPlan& plan, const TrainConfig& config, const Dataset& train,
                                  const Dataset* validation) {
    CheckpointRunKey key;
    {
        BlockWriter blocks;
        Hash h;
        h.add(dumpJson(toJson(plan, blocks)));
        for (const auto& b : blocks.blocks()) h.add(b.data(), b.size() * sizeof(float));
        key.plan = h.hex();
    }
    {
        TrainConfig c = config;
        c.threads = 0;
        c.batchReportSeconds = c.resourceReportSeconds = 0;
        c.clockOrigin.reset();
        Hash h;
        h.add(dumpJson(toJson(c)));
        key.config = h.hex();
    }
    {
        Hash h;
        hashDataset(h, train);
        const char separator[] = "validation";
        h.add(separator, sizeof separator);
        if (validation) hashDataset(h, *validation);
        key.data = h.hex();
    }
    return key;
}

CheckpointStore::CheckpointStore(std::string folder, SplitPlan plan, CheckpointRunKey key)
    : folder_(std::move(folder)), plan_(std::move(plan)), key_(std::move(key)),
      writes_(std::make_shared<LatestWriteQueue>()) {}

bool CheckpointStore::holdsRun(const std::string& folder) {
    std::error_code ec;
    return fs::is_regular_file(runFilePath(folder), ec);
}

CheckpointStore CheckpointStore::attach(const std::string& folder, const SplitPlan& plan, const CheckpointRunKey& key) {
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec || !fs::is_directory(folder))
        throw Error("cannot create the checkpoint folder " + folder + ": " + (ec ? ec.message() : "not a folder"));
    return CheckpointStore(folder, plan, key);
}

CheckpointStore CheckpointStore::start(const std::string& folder, const SplitPlan& plan, const CheckpointRunKey& key) {
    attach(folder, plan, key);
    removeRunFiles(folder);
    removeStaleTempFiles(folder);
    const Json run = Json::object({{"format", "skynnet-checkpoint"},
                                   {"version", kFormatVersion},
                                   {"submodels", plan.submodelCount()},
                                   {"run", toJson(key)}});
    writeFileAtomically(runFilePath(folder), dumpJson(run, 2) + "\n");
    return CheckpointStore(folder, plan, key);
}

CheckpointStore CheckpointStore::resume(const std::string& folder, const SplitPlan& plan, const CheckpointRunKey& key) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        throw Error("the checkpoint folder " + folder + " does not exist: nothing to resume");
    const std::string path = runFilePath(folder);
    if (!fs::is_regular_file(path, ec))
        throw Error("the checkpoint folder " + folder + " holds no " + kRunFile + ": nothing to resume");
    const Json run = parseJson(readFile(path), path);
    const JsonField j(run, path);
    (void)j.asObject();
    if (j.value("format", std::string()) != "skynnet-checkpoint") throw Error(path + " is not a Skynnet checkpoint");
    const int version = j.at("version").asInt();
    if (version > kFormatVersion)
        throw Error(path + " was written by a newer Skynnet (checkpoint format " + std::to_string(version) +
                    ", this build reads up to " + std::to_string(kFormatVersion) + ")");
    const CheckpointRunKey saved = checkpointRunKeyFromJson(j.at("run"));
    if (saved != key) throw Error(path + " is from another run: " + checkpointKeyDifferences(saved, key));
    if (j.at("submodels").asInt64() != plan.submodelCount())
        j.at("submodels").fail("must be " + std::to_string(plan.submodelCount()) + " (the plan's submodels)");
    removeStaleTempFiles(folder);
    return CheckpointStore(folder, plan, key);
}

std::string CheckpointStore::submodelPath(int index) const {
    return (fs::path(folder_) / ("submodel-" + std::to_string(index + 1) + ".ckpt")).string();
}

std::optional<SubmodelResume> CheckpointStore::load(int index) const {
    writes_->drain(index);  // what was saved, not what was on disk before it
    const std::string path = submodelPath(index);
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;
    const SubmodelPlan& sp = plan_.submodels.at(std::size_t(index));
    Network network(sp.spec, sp.seed);
    return loadCheckpointFile(path, key_, index, network);
}

void CheckpointStore::saveEpoch(int index, const Network& network, const TrainerState& state) const {
    // A copy of the state now; the file is written on the queue's thread (see latest_write_queue.h).
    auto r = std::make_shared<SubmodelResume>();
    r->weights = network.flatWeights();
    r->state = state;
    writes_->post(index,
                  [path = submodelPath(index), key = key_, index, r] { saveCheckpointFile(path, key, index, *r); });
}

void CheckpointStore::saveFinished(int index, const SubmodelOutcome& outcome) const {
    // Once per submodel, and its result must be on disk before anyone is told it has finished.
    auto r = std::make_shared<SubmodelResume>();
    r->finished = true;
    r->weights = outcome.network.flatWeights();
    r->result = outcome.result;
    writes_->post(index,
                  [path = submodelPath(index), key = key_, index, r] { saveCheckpointFile(path, key, index, *r); });
    writes_->drain(index);
}

void CheckpointStore::waitForSaves() const { writes_->drainAll(); }

CheckpointHooks CheckpointStore::hooks() const {
    CheckpointHooks h;
    h.load = [this](int i) { return load(i); };
    h.saveEpoch = [this](int i, const Network& n, const TrainerState& s) { saveEpoch(i, n, s); };
    h.saveFinished = [this](int i, const SubmodelOutcome& o) { saveFinished(i, o); };
    h.folder = folder_;
    h.runKey = dumpJson(toJson(key_));
    return h;
}

std::string CheckpointStore::progressText() const {
    const int s = plan_.submodelCount();
    int finished = 0;
    std::vector<std::string> partial;
    for (int i = 0; i < s; ++i) {
        const auto r = load(i);
        if (!r) continue;
        if (r->finished) ++finished;
        else
            partial.push_back((s == 1 ? std::string("the network") : "submodel " + std::to_string(i + 1)) +
                              " after epoch " + std::to_string(r->state.epochsDone) + " of " +
                              std::to_string(plan_.effectiveEpochs));
    }
    std::string text;
    if (s == 1) text = finished ? "the network has finished" : partial.empty() ? "nothing saved yet" : "";
    else text = std::to_string(finished) + " of " + std::to_string(s) + " submodels finished";
    for (const auto& p : partial) text += (text.empty() ? "" : ", ") + p;
    return text;
}

void CheckpointStore::removeFolder(const std::string& folder) noexcept {
    try {
        removeRunFiles(folder);
        removeStaleTempFiles(folder);
        std::error_code ec;
        if (fs::is_empty(folder, ec) && !ec) fs::remove(folder, ec);
    } catch (...) {
    }
}

}  // namespace skynnet
