#pragma once
// A split trained briefly (2 epochs, batch 32) and kept as a project's completed run, saved to
// `path` and loaded back: the round trip the planner's options are tested through (the "other"
// output, the shards' overlap).
#include <string>

#include "project/project_file.h"
#include "split/combined_model_file.h"
#include "split/parallel_trainer.h"
#include "split/split_plan.h"

struct ProjectRoundTrip {
    skynnet::SplitPlan plan;    // what trained
    skynnet::ProjectData back;  // the project as loaded again
};

inline ProjectRoundTrip trainSaveAndReload(const skynnet::NetworkSpec& net, const skynnet::Dataset& data,
                                           const skynnet::SplitOptions& options, const std::string& path,
                                           const char* runName) {
    using namespace skynnet;
    ProjectRoundTrip r;
    r.plan = makePlan(net, data, options);
    TrainConfig config;
    config.epochs = 2;
    config.batchSize = 32;
    ParallelResult split = ParallelTrainer(r.plan, config).train(data);
    if (split.status != TrainStatus::Completed) throw Error("the split did not complete");
    SavedCombinedModel model = toSaved(split.model, Preprocessing{}, {});
    model.schema.classNames = data.classNames;
    ProjectData p;
    p.network = net;
    p.split = options;
    p.training.config = config;
    p.runs.push_back(completedRun(r.plan, split, nullptr, &model, runName));
    saveProject(path, p);
    r.back = loadProject(path);
    return r;
}
