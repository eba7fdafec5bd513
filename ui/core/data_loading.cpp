#include "ui/core/data_loading.h"

#include <QtConcurrent/QtConcurrentRun>

#include "core/error.h"
#include "data/data_source.h"
#include "data/text_summary.h"
#include "data/training_checks.h"

namespace skynnet::ui {
LoadedData loadData(const ProjectDataSource& settings, TextColumn text) {
    if (settings.train.path.empty()) throw Error("no data file chosen");
    auto train = std::make_shared<Dataset>(loadTrainingData(settings.trainRequest()));
    if (text == TextColumn::guessed && settings.textColumn.empty() && !settings.sampleShape) {
        ProjectDataSource asText = settings;
        asText.textColumn = guessTextColumn(*train);
        if (!asText.textColumn.empty()) return loadData(asText);
    }
    train->validate();
    if (train->size() == 0) throw Error(train->source + ": no samples");
    LoadedData loaded;
    loaded.settings = settings;
    loaded.warnings = checkTrainable(*train, settings.validationFraction, settings.testFraction,
                                     !settings.test.path.empty());
    if (const std::string skipped = train->skippedFilesWarning(); !skipped.empty())
        loaded.warnings.insert(loaded.warnings.begin(), skipped);
    if (!settings.test.path.empty()) {
        Dataset test = loadLike(settings.testRequest(), train->schema(), true);
        test.validate();
        if (const std::string skipped = test.skippedFilesWarning(); !skipped.empty())
            loaded.warnings.push_back("test data: " + skipped);
        loaded.test = std::make_shared<const Dataset>(std::move(test));
    }
    loaded.train = std::move(train);
    return loaded;
}

QFuture<LoadedData> loadDataAsync(const ProjectDataSource& settings, TextColumn text) {
    return QtConcurrent::run([settings, text] {
        try {
            return loadData(settings, text);
        } catch (const std::exception& e) {
            throw DataLoadError(QString::fromStdString(e.what()));
        }
    });
}

}  // namespace skynnet::ui
