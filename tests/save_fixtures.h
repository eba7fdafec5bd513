#pragma once
// What the save-failure tests save, built without training: a project with one completed run (its
// plan, every submodel's weights and the baseline's) and that run's combined model and first
// network. `variant` seeds the weights, so two variants are two different files of one layout;
// `width` is the hidden layers' width and so sets the size (width 2000: a project of ~30 MB).
// Shared by tst_saves and its child process save_child.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "data/generators.h"
#include "model/saved_model.h"
#include "project/project_file.h"
#include "spec/network_spec.h"
#include "split/combined_model_file.h"
#include "split/split_plan.h"

namespace save_fixtures {

struct Files {
    skynnet::ProjectData project;
    skynnet::SavedCombinedModel combined;
    skynnet::SavedModel single;  // the combined model's first network alone
};

// Weights in a cheap pattern rather than a network's initialisation: the children of the kill
// test build ~8 million of them at every start.
inline std::vector<float> weights(std::int64_t count, std::uint64_t seed) {
    std::vector<float> w(static_cast<std::size_t>(count));
    std::uint64_t x = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (float& v : w) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        v = float(x >> 40) / float(1 << 24) - 0.5f;
    }
    return w;
}

inline Files make(int variant, int width) {
    using namespace skynnet;
    const Dataset data = makeBlobs(4, 8, 32, 1.0f, 3);
    NetworkSpec net;
    net.input = Shape::flat(32);
    const std::string w = std::to_string(width);
    net.layers = parseLayers("dense:" + w + ":relu,dense:" + w + ":tanh");
    net.setOutputFor(Task::Classification, 4);
    SplitOptions o;
    o.strategy = Strategy::ClassGroups;
    o.requested = 2;
    const SplitPlan plan = makePlan(net, data, o);

    Files f;
    f.combined.rule = plan.rule();
    f.combined.loss = LossKind::SoftmaxCrossEntropy;
    for (const auto& s : plan.submodels) {
        f.combined.specs.push_back(s.spec);
        f.combined.weights.push_back(weights(paramCount(s.spec), s.seed + std::uint64_t(variant)));
    }
    f.combined.preprocessing.fit(data);
    f.combined.schema.classNames = data.classNames;
    f.combined.schema.featureNames = data.featureNames;

    ProjectRun run;
    run.message = "variant " + std::to_string(variant);
    run.plan = plan;
    ProjectResults r;
    for (int i = 0; i < plan.submodelCount(); ++i) {
        ModelHistory h;
        h.submodel = i;
        h.finished = true;
        run.submodels.push_back(h);
        r.submodels.push_back(TrainResult{});
    }
    r.model = f.combined;
    r.baselineWeights = weights(paramCount(plan.original), std::uint64_t(variant));
    run.results = std::move(r);
    f.project.network = net;
    f.project.split = o;
    f.project.runs.push_back(std::move(run));

    f.single.schema.task = Task::Classification;
    f.single.spec = f.combined.specs[0];
    f.single.weights = f.combined.weights[0];
    f.single.preprocessing = f.combined.preprocessing;
    return f;
}

}  // namespace save_fixtures
