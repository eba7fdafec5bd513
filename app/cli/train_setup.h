#pragma once
// Turns parsed train options into what the engine trains on: the data split and preprocessed,
// the NetworkSpec and the TrainConfig. Separate from the command so another front end (the split
// planner's `plan`, or split training) can build the same inputs and train them differently.
#include "data/dataset.h"
#include "data/preprocessing.h"
#include "data/data_source.h"
#include "model/saved_model.h"
#include "model/network.h"
#include "train_options.h"

namespace skynnet::cli {

struct PreparedData {
    // Names, labels and targets of each part; their raw features are freed once preprocessed.
    // Validation or test may be empty.
    Dataset train, validation, test;
    DataLayout layout;                // what evaluation and prediction data must look like
    Preprocessing preprocessing;      // fitted on `train` only
    Matrix xTrain, yTrain, xValidation, yValidation, xTest, yTest;  // network inputs and targets

    Task task() const { return train.task; }
};

enum class DataUse {
    Training,  // everything: the test data too, every part preprocessed
    Planning,  // the training rows as `plan` needs them: preprocessing fitted but not applied (the
               // parts keep their raw features, the x and y matrices stay empty), no test data read
};

// Loads --data (and --test-data), splits it with the seed, fits the preprocessing on the training
// rows and applies it to every part. Throws Error for data problems, including data that cannot
// support training (partitionData); prints the partition's warnings on stderr.
PreparedData prepareData(const TrainOptions& options, DataUse use = DataUse::Training);
// A part's names and targets with network inputs `x` as its features: what the engine's split
// training and combined evaluation take.
Dataset networkDataset(const Dataset& part, Matrix x);
NetworkSpec buildNetworkSpec(const TrainOptions& options, const PreparedData& data);
// The options' config with the loss chosen for the task (a loss that contradicts the task is a
// UsageError naming --loss).
TrainConfig buildTrainConfig(const TrainOptions& options, Task task);
// Everything a model file needs to predict from raw features; `extra` goes into the file as is.
SavedModel buildSavedModel(const PreparedData& data, const Network& network, Json extra);

}  // namespace skynnet::cli
