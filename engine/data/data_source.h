#pragma once
// Where a front end (the command-line tool, the desktop app) gets its data: a CSV/TSV file, an
// IDX image file (the MNIST family, plain or gzip), an image folder (one subfolder per class,
// data/image_folder.h; for prediction also a single image or a flat folder), a text folder (one
// subfolder of .txt files per class, data/text_data.h; for a text model's prediction also a single
// .txt file or a flat folder of them) or a built-in
// generator ("builtin:spirals", "builtin:sine", "builtin:blobs"), so that there is always an
// offline example.
//
// Training data is loaded as it is. Test, evaluation and prediction data are loaded *like* a
// reference layout (the training set or a saved model): feature columns in the reference's order
// with its category codes, labels mapped onto its classes by name. A file whose own class list or
// column order differs from the training file's therefore still lines up with the model.
//
// Every failure is a skynnet::Error. Problems with the request itself (an unknown built-in name,
// a labels file for a CSV) name the option the value came from, so a front end can show them as
// mistakes in how it was asked; checkDataRequest() finds those before anything is read.
#include <optional>
#include <string>
#include <vector>

#include "core/task.h"
#include "data/dataset.h"
#include "data/image_folder.h"
#include "data/text_data.h"

namespace skynnet {

enum class DataKind { Csv, Idx, Builtin, ImageFolder, ImageFile, TextFolder };

struct DataRequest {
    std::string option = "--data";  // what the path came from, for messages
    std::string path;
    std::string labels;                     // IDX labels file; empty: the one beside the images
    std::string target;                     // CSV target column (name or index); empty: the last column
    std::optional<Task> task;               // empty: detected
    std::string labelsOption = "--labels";  // what `labels` came from, for messages
    std::string targetOption = "--target";  // what `target` came from, for messages
    // Image folders: the size and channels wanted (loadLike takes them from the schema instead)
    // and whether an unreadable image is an error.
    ImageOptions image;
    std::optional<Shape> sampleShape;  // CSV: the layout of a row's features, e.g. (1,28,28)
    std::string imageOption = "--image-size", sampleShapeOption = "--sample-shape";  // for messages
    // CSV text data: the column of the texts (data/text_data.h); loadLike takes the schema's when empty.
    std::string textColumn;
    std::string textColumnOption = "--text-column";  // for messages
    // --as-sequence rows: one-channel images (1, H, W) read as Shape::steps(H, W), H steps of W
    // features (the same memory). loadLike takes the layout from the schema instead.
    bool sequenceRows = false;
    std::string sequenceOption = "--as-sequence";  // for messages
    bool operator==(const DataRequest&) const = default;
};

// "builtin:" prefix, else a folder is a text folder when its class subfolders hold .txt files
// (isTextFolder) and an image folder otherwise, a .png/.jpg/.jpeg/.bmp file an image,
// IDX by name ("idx", "ubyte") or magic (gzip or 0x0000080n), else CSV.
DataKind dataKind(const std::string& path);

// The request's own mistakes, without loading anything: a malformed builtin spec, a labels file
// for data that is not IDX, a target column or sample shape for data that is not CSV, image
// options for data that is not an image folder, a text column for data that is not CSV (or
// with a sample shape), rows as a sequence for text. Throws Error whose message
// starts with the option at fault ("--data: unknown built-in dataset 'x' ...").
void checkDataRequest(const DataRequest& request);

// The training data; its schema's targetColumn is the request's. Builtin specs are "builtin:NAME[:KEY=VALUE...]" with
// keys samples, classes, noise, seed, outputs, features.
Dataset loadTrainingData(const DataRequest& request);

// Loads data like `schema` (a training set's or a saved model's). With needTargets, labels or
// targets are loaded too (and their absence is an Error); without, the result has features only
// (a CSV may lack the target columns). The schema's target column is used when the request names none.
// Text (schema.isText()) is read from the schema's text column or a text folder (without targets
// also from a .txt file or a flat folder of them, isUnlabelledTexts), and encoded by the schema's
// vocabulary when it is fitted (else left raw, for the preparation to encode).
Dataset loadLike(const DataRequest& request, const ModelSchema& schema, bool needTargets);

// Unlabelled images (a single file or a flat folder, see loadImageFiles) in the schema's sample
// shape, with the file of each row, for prediction. Throws Error when the schema is not an image's.
ImageFiles loadImagesLike(const DataRequest& request, const ModelSchema& schema);

// Whether a text model reads `request` as unlabelled texts (loadTextsLike): a .txt file, unless a
// --text-column says it is a CSV, or a folder that is not a labelled text folder (its own .txt files).
bool isUnlabelledTexts(const DataRequest& request);

// Unlabelled texts (a single .txt file or a flat folder, see loadTextFiles) encoded by the schema's
// vocabulary, with the file of each row, for prediction. Throws Error when the schema is not a text
// model's.
TextFiles loadTextsLike(const DataRequest& request, const ModelSchema& schema);

}  // namespace skynnet
