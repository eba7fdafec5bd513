#pragma once
// What a run trains on, as a request: the files to load and how to prepare them. Every front end
// states its data this way (the CLI's --data options, a project's data reference), the runner
// prepares it, and an MPI job carries it (as JSON) to the workers, which prepare their rows from it
// and never from a command line.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "data/prepared_data.h"
#include "io/json.h"
#include "project/data_reference.h"

namespace skynnet {

struct RunData {
    DataRequest train;
    std::optional<DataRequest> test;  // a separate test file; without it the test rows are cut from train
    PreparationSettings preparation;  // separateTestFile follows `test`
    bool operator==(const RunData&) const = default;
};

// A project's data reference as a request; the messages name the project file's fields
// ("project data train", ...).
RunData runDataOf(const ProjectDataSource& source);

// The scaling a data file gets when none is asked for: the pixel range for images (IDX, image
// folders), standardisation otherwise.
Scaling defaultScalingFor(const std::string& path);

enum class DataUse {
    Training,   // everything: the test data too, every part's features the network's inputs
    Planning,   // the training rows as a planner needs them: preprocessing fitted but not applied
                // (the parts keep their raw features), no test data read
    Submodels,  // an MPI worker's: training and validation as network inputs, no test file read
};

struct PrepareHooks {
    // Each warning of the partition and of skipped image files (not for DataUse::Submodels, whose
    // rank 0 reports them).
    std::function<void(const std::string&)> warning;
    // Called with the parts still raw and the preprocessing fitted (what their prepared size
    // follows from), before the preprocessing is applied.
    std::function<void(const PreparedData&)> split;
};

// Loads and prepares the data the engine's way (data/prepared_data.h). Throws Error for data
// problems, including data that cannot support training.
PreparedData prepareRunData(const RunData& data, DataUse use = DataUse::Training, const PrepareHooks& hooks = {});

// The files the preparation reads (the labels beside IDX images included), for content checks on
// other machines. Generators ("builtin:") read none.
std::vector<std::string> filesRead(const RunData& data);

// The JSON form an MPI job carries; every field, the option names of messages included, so that a
// worker's error names what the user wrote.
Json toJson(const RunData& data);
RunData runDataFromJson(const JsonField& j);

}  // namespace skynnet
