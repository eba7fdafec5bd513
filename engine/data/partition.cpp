#include "data/partition.h"

#include "core/error.h"

namespace skynnet {

SplitIndices splitForTraining(const Dataset& data, double validationFraction, double testFraction,
                              bool separateTestFile, std::uint64_t seed) {
    // With a separate test file every row of the training file is for training and validation.
    return splitIndices(data, validationFraction, separateTestFile ? 0.0 : testFraction, seed);
}

DataPartition partitionData(const Dataset& data, double validationFraction, double testFraction, bool separateTestFile,
                            std::uint64_t seed, Scaling scaling) {
    DataPartition p;
    p.warnings = checkTrainable(data, validationFraction, testFraction, separateTestFile);
    const SplitIndices idx = splitForTraining(data, validationFraction, testFraction, separateTestFile, seed);
    if (idx.train.empty())
        throw Error(data.source + ": no rows left for training after the validation and test splits");
    p.train = data.subset(idx.train);
    p.validation = data.subset(idx.validation);
    p.test = data.subset(idx.test);
    p.preprocessing.scaling = scaling;
    // Raw texts have no columns yet: splitAndFit fits once they are token ids.
    if (!data.isText()) p.preprocessing.fit(p.train);
    return p;
}

}  // namespace skynnet
