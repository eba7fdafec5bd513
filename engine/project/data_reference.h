#pragma once
// Where a project's data is, and whether it is still the data the project was made with. A data
// file is recorded by its path (relative to the project's folder, and absolute) and a fingerprint:
// its size and a fast non-cryptographic hash of its content (libxxhash's XXH64, which streams at
// memory speed, so even Fashion-MNIST's 26 MB hash in milliseconds). Loading looks beside the project first,
// then at the absolute path, so a project folder moved as a whole still finds its data, then for a
// file of the same name and fingerprint in the project's folder, and data that moved or changed
// is reported rather than silently used. An image folder is recorded the
// same way, its fingerprint taken over every file below it (names and contents). The fingerprint catches any edit,
// truncation or replacement; it is no defence against a deliberate collision.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/task.h"
#include "data/data_source.h"
#include "data/prepared_data.h"
#include "data/preprocessing.h"
#include "io/json.h"

namespace skynnet {

struct FileFingerprint {
    std::uint64_t size = 0;
    std::uint64_t hash = 0;  // XXH64, seed 0, of the whole content
    bool operator==(const FileFingerprint&) const = default;
};

// Reads the whole file; for a folder, every file below it in name order, each hashed with its
// relative path and size (so a renamed, added or removed image changes it too), size their total.
// Throws Error naming the path ("... does not exist").
FileFingerprint fileFingerprint(const std::string& path);

enum class DataFileStatus {
    Unchecked,  // no file (empty path), a generator, or a file saved without a fingerprint (found)
    Found,      // where it was saved (or beside the moved project) with the same content
    Changed,    // found, but its content differs from what the project was trained on
    Missing,    // neither beside the project nor at its absolute path
};
std::string dataFileStatusName(DataFileStatus s);  // "unchecked", "found", "changed", "missing"

struct ProjectDataFile {
    // Absolute path (or "builtin:..."; empty: none). When read from a project: where the file was
    // found, or the absolute path it was saved under when it is missing.
    std::string path;
    std::optional<FileFingerprint> fingerprint;         // the content the project was made with
    DataFileStatus status = DataFileStatus::Unchecked;  // set when read (locateDataFile)
    bool operator==(const ProjectDataFile&) const = default;
};

// What a front end calls the settings a data request came from, for its messages
// ("data file: ...", "project data train: ...").
struct DataRequestNames {
    std::string file = "data file", labels = "labels file", target = "target column";
};

// The dataset reference and the preprocessing settings (what DataSettings holds in the app).
struct ProjectDataSource {
    ProjectDataFile train, trainLabels, test, testLabels;
    std::string targetColumn;          // CSV: name or index; empty: the last column
    std::optional<Task> task;          // empty: detected
    ImageOptions image;                // image folders: size, channels, strict (memoryLimitBytes is not saved)
    std::optional<Shape> sampleShape;  // CSV: the layout of a row
    std::string textColumn;            // CSV text data: the column of the texts (data/text_data.h)
    TextSettings text;                 // text data: vocabulary cap and tokens per text
    bool sequenceRows = false;         // one-channel images read as H steps of W features
    Scaling scaling = Scaling::Standardize;
    double validationFraction = 0.1;
    double testFraction = 0.2;
    std::uint64_t seed = 1;
    bool operator==(const ProjectDataSource&) const = default;
    // How its data is prepared for training (data/prepared_data.h).
    PreparationSettings preparation() const;
    // What the data front end (data/data_source.h) loads: the training file, or the separate test
    // file, with its labels file, the target column and the task.
    DataRequest trainRequest(const DataRequestNames& names = {}) const;
    DataRequest testRequest(const DataRequestNames& names = {}) const;
    // Files that are Changed or Missing, for messages: "train (/data/x.csv): missing".
    std::vector<std::string> problems() const;
};

// Looks for a saved data file: `savedRelative` against projectDir first, then the absolute
// path, comparing fingerprints, and when neither holds the saved content, a file of the same name
// in projectDir whose fingerprint matches. Sets file.path to where it was found and file.status.
void locateDataFile(ProjectDataFile& file, const std::string& savedRelative, const std::string& projectDir);
// Re-checks a file the user pointed to (e.g. after a dialog): Found when its fingerprint matches
// (or none was saved), Changed when it differs, Missing when it does not exist.
DataFileStatus checkDataFile(const ProjectDataFile& file);

// The "data" object of a project file; data files are written relative to projectDir and
// absolute, and located again (with their status set) when read. locate false reads the files
// as saved (absolute paths, status Unchecked) without touching them: a run's record of its data.
Json toJson(const ProjectDataSource& source, const std::string& projectDir);
ProjectDataSource dataSourceFromJson(const JsonField& j, const std::string& projectDir, bool locate = true);

}  // namespace skynnet
