#pragma once
// A dataset in memory: a feature matrix (one sample per row) and its targets, either class indices
// over a *declared* class list or one or more regression columns.
#include <string>
#include <vector>

#include "core/tensor.h"
#include "data/model_schema.h"

namespace skynnet {

// A file a loader could not read and left out (an image folder's damaged image), and why.
struct SkippedFile {
    std::string path, reason;
    bool operator==(const SkippedFile&) const = default;
};

// The schema is the base, so that a dataset's names are read as before (d.classNames) and a
// dataset passes as its own schema wherever data must be loaded or checked like it.
struct Dataset : ModelSchema {
    std::string source;                // file path or generator name, for messages
    Matrix features;                   // rows = samples, sampleShape.size() columns
    std::vector<int> labels;           // class index per sample, into classNames
    std::string labelColumn;           // the CSV column the labels come from, for messages ("" otherwise)
    Matrix targets;                    // regression values, rows = samples, one column per targetName
    std::vector<SkippedFile> skipped;  // files left out while loading, in the order met
    // Raw text data (isText()): one text per row until encoded into token ids (data/text_data.h);
    // until then `features` has no columns. Empty once encoded.
    std::vector<std::string> texts;

    const ModelSchema& schema() const { return *this; }
    Index size() const { return features.rows(); }
    int outputCount() const;  // classes, 1 for binary, or the number of target columns
    // Targets as a network is trained on them: one-hot rows, a 0/1 column, or the values.
    Matrix targetMatrix() const;
    // The rows listed, in that order, with everything else (names, declared classes) kept.
    Dataset subset(const std::vector<int>& rows) const;
    // Throws Error if the parts disagree in size or a label is outside the declared classes.
    void validate() const;
    // "2 of 120 image files could not be read and were skipped: a.png (reason), ..." naming the
    // first few; empty when nothing was skipped.
    std::string skippedFilesWarning() const;
};

}  // namespace skynnet
