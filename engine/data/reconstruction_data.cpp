#include "data/reconstruction_data.h"

#include "core/error.h"
#include "data/csv_loader.h"

namespace skynnet {
namespace {

constexpr const char* reconstructsNoText =
    " holds text, which reconstruction cannot reconstruct (it needs numeric columns; name a label column with "
    "--target to leave it out)";

}  // namespace

void keepFeaturesOnly(Dataset& d) {
    d.task = Task::Reconstruction;
    d.labels.clear();
    d.classNames.clear();
    d.labelColumn.clear();
    d.targets.resize(0, 0);
    if (!d.categoricals.empty())
        throw Error(d.source + ": column '" + d.featureNames[std::size_t(d.categoricals.front().column)] + "'" +
                    reconstructsNoText);
    d.targetNames = d.featureNames;  // output j reconstructs feature j
}

// Without a target, the last column is read as loadCsv's regression target and put back in its
// place, the last.
Dataset loadCsvForReconstruction(const std::string& path, const std::string& target) {
    CsvOptions options;
    if (!target.empty()) {
        options.targets = {target};
        return loadCsv(path, options);
    }
    options.task = Task::Regression;
    Dataset d;
    try {
        d = loadCsv(path, options);
    } catch (const Error&) {
        // The last column is no number, most likely a label: say so and how to leave it out. A
        // file broken elsewhere fails this load too, with its own message.
        const Dataset labelled = loadCsv(path, CsvOptions{});
        const std::string column = labelled.labelColumn.empty() ? "the last column" : "'" + labelled.labelColumn + "'";
        throw Error(path + ": column " + column + reconstructsNoText);
    }
    Matrix all(d.features.rows(), d.features.cols() + 1);
    all << d.features, d.targets;
    d.features = std::move(all);
    d.featureNames.push_back(d.targetNames.front());
    d.sampleShape = Shape::flat(int(d.features.cols()));
    d.targetNames.clear();
    return d;
}

}  // namespace skynnet
