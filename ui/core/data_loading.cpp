#include "ui/core/data_loading.h"

#include <QtConcurrent/QtConcurrentRun>

#include "core/error.h"
#include "data/data_source.h"
#include "data/training_checks.h"

namespace skynnet::ui {
namespace {

// The engine's data front end, shared with skynnet-cli; the option names read as the app's words.
DataRequest request(const QString& path, const QString& labels, const DataSettings& s) {
    DataRequest r;
    r.option = "data file";
    r.labelsOption = "labels file";
    r.targetOption = "target column";
    r.path = path.toStdString();
    r.labels = labels.toStdString();
    r.target = s.targetColumn.toStdString();
    r.task = s.task;
    return r;
}

}  // namespace

LoadedData loadData(const DataSettings& settings) {
    if (settings.path.isEmpty()) throw Error("no data file chosen");
    auto train = std::make_shared<Dataset>(loadTrainingData(request(settings.path, settings.labelsPath, settings)));
    train->validate();
    if (train->size() == 0) throw Error(train->source + ": no samples");
    LoadedData loaded;
    loaded.warnings =
        checkTrainable(*train, settings.validationFraction, settings.testFraction, !settings.testPath.isEmpty());
    if (!settings.testPath.isEmpty()) {
        const DataLayout layout = layoutOf(*train, settings.targetColumn.toStdString());
        Dataset test = loadLike(request(settings.testPath, settings.testLabelsPath, settings), layout, true);
        test.validate();
        loaded.test = std::make_shared<const Dataset>(std::move(test));
    }
    loaded.train = std::move(train);
    return loaded;
}

QFuture<LoadedData> loadDataAsync(const DataSettings& settings) {
    return QtConcurrent::run([settings] {
        try {
            return loadData(settings);
        } catch (const std::exception& e) {
            throw DataLoadError(QString::fromStdString(e.what()));
        }
    });
}

}  // namespace skynnet::ui
