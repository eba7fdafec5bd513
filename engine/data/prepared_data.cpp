#include "data/prepared_data.h"

#include "data/partition.h"

namespace skynnet {
namespace {

// Raw features -> network inputs, in place; the one-hot columns are no longer categorical. The
// raw features are freed: for image sets they are hundreds of megabytes nothing reads again.
void transform(Dataset& d, const Preprocessing& p, const std::vector<std::string>& names) {
    d.features = p.apply(d.features);
    if (p.outputColumns() != d.sampleShape.size()) d.sampleShape = Shape::flat(p.outputColumns());
    d.featureNames = names;
    d.categoricals.clear();
}

}  // namespace

PreparedData splitAndFit(const Dataset& all, const PreparationSettings& s) {
    DataPartition part = partitionData(all, s.validationFraction, s.testFraction, s.separateTestFile, s.seed,
                                       s.scaling);
    PreparedData p;
    p.schema = all.schema();
    p.preprocessing = std::move(part.preprocessing);
    p.train = std::move(part.train);
    p.validation = std::move(part.validation);
    p.test = std::move(part.test);
    p.warnings = std::move(part.warnings);
    if (const std::string skipped = all.skippedFilesWarning(); !skipped.empty())
        p.warnings.insert(p.warnings.begin(), skipped);
    return p;
}

void applyPreprocessing(PreparedData& p, const Dataset* test) {
    if (test) p.test = *test;
    const auto names = p.preprocessing.outputNames(p.schema.featureNames);
    transform(p.train, p.preprocessing, names);
    transform(p.validation, p.preprocessing, names);
    transform(p.test, p.preprocessing, names);
}

PreparedData prepareData(const Dataset& all, const Dataset* test, PreparationSettings settings) {
    settings.separateTestFile = test != nullptr;
    PreparedData p = splitAndFit(all, settings);
    applyPreprocessing(p, test);
    return p;
}

Shape networkInputShape(const PreparedData& p) {
    const int columns = p.preprocessing.outputColumns();
    return Index(columns) == p.schema.sampleShape.size() && p.preprocessing.oneHot.empty() ? p.schema.sampleShape
                                                                                           : Shape::flat(columns);
}

}  // namespace skynnet
