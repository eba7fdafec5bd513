// Writes the fuzz seed corpora of tests/fuzz/corpus: small real files, the binary ones written by
// the engine itself so they follow the current formats. Usage: make_fuzz_seeds <corpus folder>.
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "checkpoint_setup.h"
#include "data/generators.h"
#include "data/preprocessing.h"
#include "data/text_vocabulary.h"
#include "image_seeds.h"
#include "io/json.h"
#include "model/network.h"
#include "model/saved_model.h"
#include "project/project_file.h"
#include "split/combined_model_file.h"
#include "split/split_plan.h"
#include "train/trainer_state.h"

using namespace skynnet;
namespace fs = std::filesystem;

namespace {

fs::path corpus;

void put(const std::string& target, const std::string& name, const std::string& bytes) {
    fs::create_directories(corpus / target);
    std::ofstream(corpus / target / name, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string gzip(const std::string& bytes) {
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);  // +16: a gzip wrapper
    std::string out(deflateBound(&z, uLong(bytes.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = uInt(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::string be32(std::uint32_t v) { return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)}; }

// An images file (count x rows x cols) and its labels, as fuzz_idx.cpp takes them.
std::pair<std::string, std::string> idxPair(std::uint32_t count, std::uint32_t rows, std::uint32_t cols) {
    std::string images = be32(0x803) + be32(count) + be32(rows) + be32(cols);
    for (std::uint32_t i = 0; i < count * rows * cols; ++i) images += char(i * 37 % 256);
    std::string labels = be32(0x801) + be32(count);
    for (std::uint32_t i = 0; i < count; ++i) labels += char(i % 10);
    return {images, labels};
}

void idxSeeds() {
    const std::string sep = "SKYNNET-IDX-LABELS";
    int n = 0;
    for (const auto& [count, rows, cols] : {std::tuple{3u, 2u, 2u}, std::tuple{4u, 5u, 3u}, std::tuple{1u, 1u, 1u}}) {
        const auto [images, labels] = idxPair(count, rows, cols);
        const std::string name = "pair" + std::to_string(++n);
        put("idx", name, images + sep + labels);
        put("idx_gzip", name, gzip(images) + sep + gzip(labels));
    }
    const auto [images, labels] = idxPair(2, 3, 3);
    put("idx_gzip", "mixed", gzip(images) + sep + labels);  // plain labels beside gzip images
}

void csvSeeds() {
    // The first byte picks the options (fuzz_csv.cpp): 0 detects everything.
    put("csv", "classes", std::string(1, '\0') + "a,b,label\n1,2,x\n3,4,y\n5,6,x\n7,8.5,y\n");
    put("csv", "quoted_crlf",
        std::string(1, '\x08') + "\xEF\xBB\xBF\"first, name\";b;c\r\n\"x\"\"y\";2;3\r\n\"a\nb\";5;6\r\n");
    put("csv", "regression", std::string(1, '\x40') + "0.5\t1e3\t-2\n1.5\t2e3\t-3\n\n2.5\t3e3\t-4\n");
    put("csv", "categorical", std::string(1, '\x60') + "colour|size|label\nred|1|cat\nblue|2|dog\nred|3|cat\n");
    put("csv", "no_header", std::string(1, '\x90') + "1,0,1\n0,1,0\n1,1,1\n0,0,0\n");
}

void jsonSeeds() {
    put("json", "object",
        R"({"kind":"single","network":{"input":{"channels":1,"height":1,"width":4},"layers":[{"type":"dense","units":8,"activation":"relu","scalable":true}],"outputs":3},"x":null,"t":true,"f":false})");
    put("json", "numbers",
        "[0, -0, 1.5e-7, 12345678901234567890, -9223372036854775808, 3.4028234663852886e38, 1E+2, 0.1]");
    put("json", "strings", R"(["", "a\"b\\c\/d\b\f\n\r\t", "\u00fc\u20ac\ud83d\ude00", "ü€😀"])");
    put("json", "nested", "\xEF\xBB\xBF {\"a\": [[[{\"b\": []}]], {}], \"c\": {\"d\": {\"e\": [1, [2, [3]]]}}}\n");
}

void imageSeeds() {
    for (const auto& [name, bytes] : fuzz::imageSeeds()) put("image", name, bytes);
}

void textSeeds() {
    // The first byte picks the source, vocabulary size and tokens per text (fuzz_text.cpp).
    put("text", "txt_file",
        "\x28"
        "Don't stop: 3.5 stars!! \u00dcn\u00efc\u00f6d\u00e9 \u0391\u0392\u0393 \u041f\u0440\u0438\u0432\u0435\u0442 "
        "\u65e5\u672c\u8a9e caf\u00e9\u2019s \u2014 \u0130stanbul \U0001F600\n");
    put("text", "txt_bom_spaces",
        "\x14\xEF\xBB\xBF"
        "a\u00a0b\u2003c\u3000d\ufeffe 12.x .5 it''s o'\n");
    put("text", "txt_folder",
        "\x29great film, great cast SKYNNET-TEXT-FILEawful film\nawful plot SKYNNET-TEXT-FILEgreat fun "
        "SKYNNET-TEXT-FILEso-so");
    put("text", "csv_text",
        "\x2aid,text,label\n1,\"Great film, great cast\",pos\n2,\"Awful film\nawful plot\",neg\n3,great fun,pos\n");
    // 24 rows whose review column reads as free text: guessTextColumn finds it.
    static const char* const words[] = {"good", "bad", "long", "short", "fun", "dull", "warm", "cold", "fast", "slow"};
    std::string guess = "\x3bid,review,stars\n";
    for (int i = 0; i < 24; ++i)
        guess += std::to_string(i) + ",the " + words[i % 10] + " and " + words[(i * 3 + 1) % 10] + " film number " +
                 std::to_string(i) + "," + std::to_string(i % 5) + "\n";
    put("text", "csv_guess", guess);
}

void vocabularySeeds() {
    TextVocabulary v =
        fitVocabulary({"Don't stop: 3.5 stars!! The caf\u00e9 \u041f\u0440\u0438\u0432\u0435\u0442 \u65e5\u672c\u8a9e",
                       "the \u0130 the 12 \u2019 \"quoted\""},
                      40);
    v.maxLength = 200;
    put("vocabulary", "fitted", dumpJson(toJson(v)));
    put("vocabulary", "empty", R"({"tokenizerRule":1,"maxLength":1,"tokens":[]})");
    put("vocabulary", "escaped", R"({"tokenizerRule":1,"maxLength":16,"tokens":["\u00e9t\u00e9","\u2019","12","\""]})");
}

// A submodel's checkpoint mid-run (Adam's two state lists, early stopping's best weights, one
// epoch of history) and one finished, for the run of checkpoint_setup.h.
void checkpointSeeds() {
    Network network(fuzz::checkpointSpec(), 1);
    const fs::path tmp = fs::temp_directory_path() / "skynnet-seed.ckpt";
    SubmodelResume running;
    running.weights = network.flatWeights();
    TrainerState& s = running.state;
    s.epochsDone = 1;
    s.steps = 12;
    s.shuffleRng = {{1, 2, 3, 4}, 7, true, 0.5};
    s.optimizer.steps = 12;
    for (int list = 0; list < 2; ++list) {
        std::vector<Matrix> matrices;
        for (const Param& p : network.params())
            matrices.push_back(Matrix::Constant(p.value->rows(), p.value->cols(), 0.125f * float(list + 1)));
        s.optimizer.lists.push_back(std::move(matrices));
    }
    s.bestScore = 0.75;
    s.bestWeights = running.weights;
    s.history.resize(1);
    s.history[0].epoch = 1;
    s.history[0].loss = 0.5;
    s.bestEpoch = 1;
    s.wallSeconds = 1.5;
    s.cpuSeconds = 2.5;
    s.peakModelBytes = 4096;
    saveCheckpointFile(tmp.string(), fuzz::checkpointKey, fuzz::checkpointIndex, running);
    put("checkpoint", "running", slurp(tmp));

    SubmodelResume finished;
    finished.finished = true;
    finished.weights = running.weights;
    finished.result.history = s.history;
    finished.result.bestEpoch = 1;
    finished.result.peakModelBytes = 4096;
    saveCheckpointFile(tmp.string(), fuzz::checkpointKey, fuzz::checkpointIndex, finished);
    put("checkpoint", "finished", slurp(tmp));
    fs::remove(tmp);
}

Preprocessing numericScaling(int columns) {
    Preprocessing p;
    p.scaling = Scaling::Standardize;
    p.rawColumns = columns;
    for (int c = 0; c < columns; ++c) p.numericColumns.push_back(c);
    p.offset = RowVector::Constant(columns, 0.25f);
    p.scale = RowVector::Constant(columns, 2.0f);
    return p;
}

std::string savedModelBytes(const SavedModel& m) {
    const fs::path tmp = fs::temp_directory_path() / "skynnet-seed.skynnet";
    saveModel(tmp.string(), m);
    std::string bytes = slurp(tmp);
    fs::remove(tmp);
    return bytes;
}

void modelSeeds() {
    SavedModel m;
    m.schema.task = Task::Classification;
    m.spec.input = Shape::flat(3);
    m.spec.layers = parseLayers("dense:4:relu,dropout:0.1");
    m.spec.setOutputFor(Task::Classification, 3);
    m.weights = Network(m.spec, 1).flatWeights();
    m.preprocessing = numericScaling(3);
    m.schema.classNames = {"a", "b", "c"};
    m.schema.featureNames = {"x", "y", "z"};
    put("model", "classification", savedModelBytes(m));
    put("combined_model", "single", savedModelBytes(m));  // loadAnyModel reads both kinds

    SavedModel r;
    r.schema.task = Task::Regression;
    r.spec.input = Shape{1, 2, 2};
    r.spec.layers = parseLayers("flatten,dense:3:tanh");
    r.spec.setOutputFor(Task::Regression, 2);
    r.weights = Network(r.spec, 2).flatWeights();
    r.schema.targetNames = {"t1", "t2"};
    r.extra = Json::object({{"epochs", 3}});
    put("model", "regression", savedModelBytes(r));

    SavedModel b;
    b.schema.task = Task::Binary;
    b.spec.input = Shape::flat(3);
    b.spec.setOutputFor(Task::Binary, 1);
    b.weights = Network(b.spec, 3).flatWeights();
    b.preprocessing.scaling = Scaling::MinMax;
    b.preprocessing.rawColumns = 2;
    b.preprocessing.numericColumns = {1};
    b.preprocessing.oneHot = {Dataset::Categorical{0, {"red", "blue"}}};
    b.preprocessing.offset = RowVector::Constant(1, 0.0f);
    b.preprocessing.scale = RowVector::Constant(1, 1.0f);
    b.schema.classNames = {"no", "yes"};
    put("model", "binary_onehot", savedModelBytes(b));
}

SavedCombinedModel combinedFor(const Dataset& data, Strategy strategy, int requested, const char* layers) {
    NetworkSpec spec;
    spec.input = Shape::flat(int(data.features.cols()));
    spec.layers = parseLayers(layers);
    spec.setOutputFor(data.task, data.task == Task::Regression ? int(data.targets.cols())
                                 : data.task == Task::Binary   ? 1
                                                               : int(data.classNames.size()));
    SplitOptions o;
    o.strategy = strategy;
    o.requested = requested;
    const SplitPlan plan = makePlan(spec, data, o);
    std::vector<Network> nets;
    for (const auto& s : plan.submodels) nets.emplace_back(s.spec, s.seed);
    Preprocessing prep;
    prep.fit(data);
    SavedCombinedModel m = toSaved(CombinedModel(plan.rule(), std::move(nets), LossKind::SoftmaxCrossEntropy), prep,
                                   {});
    m.loss = data.task == Task::Regression ? LossKind::MeanSquaredError : m.loss;
    m.schema.classNames = data.classNames;
    m.schema.featureNames = data.featureNames;
    return m;
}

void combinedSeeds() {
    const fs::path tmp = fs::temp_directory_path() / "skynnet-seed-combined.skynnet";
    const auto save = [&](const char* name, const SavedCombinedModel& m) {
        saveCombinedModel(tmp.string(), m);
        put("combined_model", name, slurp(tmp));
        fs::remove(tmp);
    };
    save("class_groups", combinedFor(makeBlobs(4, 10, 2, 1.0f, 1), Strategy::ClassGroups, 2, "dense:3:relu"));
    save("data_shards", combinedFor(makeBlobs(3, 10, 2, 1.0f, 2), Strategy::DataShards, 2, "dense:2:tanh"));
    save("output_split", combinedFor(makeSineRegression(12, 2, 0.1f, 3), Strategy::OutputSplit, 2, "dense:3:relu"));
}

void projectSeeds() {
    const fs::path dir = fs::temp_directory_path() / "skynnet-seed-project";
    fs::create_directories(dir);
    const std::string csv = (dir / "data.csv").string();
    std::ofstream(csv) << "a,b,label\n1,2,x\n";

    const Dataset data = makeBlobs(3, 8, 2, 1.0f, 4);
    ProjectData p;
    p.data.train = {csv, fileFingerprint(csv), DataFileStatus::Found};
    p.data.trainLabels = {"builtin:blobs:classes=3", std::nullopt, DataFileStatus::Unchecked};
    p.data.targetColumn = "label";
    p.data.task = Task::Classification;
    p.network.input = Shape::flat(2);
    p.network.layers = parseLayers("dense:3:relu");
    p.network.setOutputFor(Task::Classification, 3);
    p.split.strategy = Strategy::ClassGroups;
    p.split.requested = 2;
    p.split.epochs = 2;
    p.training.config.epochs = 2;
    p.extra = Json::object({{"page", 1}});
    const std::string path = (dir / "p.skynnet").string();
    saveProject(path, p);
    put("project", "settings_only", slurp(path));

    const SplitPlan plan = makePlan(p.network, data, p.split);
    ProjectRun run;
    run.status = TrainStatus::Completed;
    run.message = "done";
    run.plan = plan;
    for (int i = 0; i < plan.submodelCount(); ++i) {
        ModelHistory h;
        h.submodel = i;
        h.finished = true;
        h.lastBatch = {2, 1, 1, 0.5};
        EpochStats e;
        e.epoch = 1;
        e.loss = 0.75;
        e.hasValidation = true;
        h.epochs = {e};
        h.resources = {{0.1, 0.1, 1000, 2000}};
        run.submodels.push_back(h);
    }
    ProjectResults r;
    std::vector<Network> nets;
    for (const auto& s : plan.submodels) nets.emplace_back(s.spec, s.seed);
    Preprocessing prep;
    prep.fit(data);
    SavedCombinedModel model = toSaved(CombinedModel(plan.rule(), std::move(nets), LossKind::SoftmaxCrossEntropy), prep,
                                       {});
    model.schema.classNames = data.classNames;
    r.model = model;
    for (int i = 0; i < plan.submodelCount(); ++i) {
        r.submodels.push_back(TrainResult{});
        r.submodelWallSeconds.push_back(0.5);
        r.submodelCpuSeconds.push_back(0.5);
        r.submodelMetrics.push_back(0.5);
    }
    r.baseline = TrainResult{};
    r.baselineWeights = Network(plan.original, 5).flatWeights();
    run.baseline = run.submodels.front();
    run.baseline->submodel = -1;
    r.combinedTestOutput = Matrix::Constant(2, 3, 0.25f);
    r.testTargets = data.subset({0, 1}).targetMatrix();
    run.results = r;
    p.runs.push_back(run);
    saveProject(path, p);
    put("project", "completed_run", slurp(path));
    fs::remove_all(dir);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <corpus folder>\n", argv[0]);
        return 2;
    }
    corpus = argv[1];
    idxSeeds();
    csvSeeds();
    jsonSeeds();
    imageSeeds();
    textSeeds();
    vocabularySeeds();
    checkpointSeeds();
    modelSeeds();
    combinedSeeds();
    projectSeeds();
    return 0;
}
