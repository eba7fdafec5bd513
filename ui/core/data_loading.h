#pragma once
// Loading the data a ProjectDataSource names: a CSV/TSV file, an IDX image file (the MNIST family), an image folder or
// a built-in generator ("builtin:spirals", "builtin:blobs", "builtin:sine", with ":KEY=VALUE" options), plus an
// optional separate test file loaded like the training layout. Plain functions with no QObject, so a loader can run on
// a worker thread; kept small so it can later delegate to a shared engine data source.
#include <QException>
#include <QFuture>
#include <QString>
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "project/data_reference.h"

namespace skynnet::ui {

struct LoadedData {
    ProjectDataSource settings;  // as loaded: the request's, with a text column found by TextColumn::guessed
    std::shared_ptr<const Dataset> train;
    std::shared_ptr<const Dataset> test;  // null without a ProjectDataSource::test file
    std::vector<std::string> warnings;    // checkTrainable's (e.g. a constant regression target), skipped images
};

// Blocking; throws skynnet::Error whose message names the file and line (or the generator option),
// also for data the settings' split cannot train on (checkTrainable: one class, too few rows), so
// such a file is refused when it is opened, with skynnet-cli's message.
// With TextColumn::guessed, a CSV opened without a text column whose values read as sentences
// (guessTextColumn, data/text_summary.h) is loaded with that column as its text.
enum class TextColumn { asSettings, guessed };
LoadedData loadData(const ProjectDataSource& settings, TextColumn text = TextColumn::asSettings);

// A loading error carried through a QFuture: QFuture::result() rethrows it on the waiting thread
// (a plain std::exception would arrive as an opaque QUnhandledException).
class DataLoadError : public QException {
public:
    explicit DataLoadError(const QString& message) : message_(message), utf8_(message.toUtf8()) {}
    const QString& message() const { return message_; }
    const char* what() const noexcept override { return utf8_.constData(); }
    void raise() const override { throw *this; }
    DataLoadError* clone() const override { return new DataLoadError(*this); }

private:
    QString message_;
    QByteArray utf8_;
};

// loadData on the global thread pool; errors come back as DataLoadError.
QFuture<LoadedData> loadDataAsync(const ProjectDataSource& settings, TextColumn text = TextColumn::asSettings);

}  // namespace skynnet::ui
