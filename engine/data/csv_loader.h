#pragma once
// Loading delimited text files (CSV, TSV, ...) into a Dataset, for training and for prediction.
//
// Format: RFC 4180 quoting (a field in double quotes may hold the delimiter, line breaks and ""
// for a quote), LF or CRLF line ends, a UTF-8 byte-order mark is skipped, blank lines are ignored,
// spaces around unquoted fields are trimmed. Missing values ("", NA, NaN, ?), infinities and
// numbers a float32 cannot hold (3.5e39) are errors at their cell: the engine does not impute,
// since a guessed value would be trained on and saved in the model as if it were data. Every
// error names the file and, where it applies, the 1-based line and the column as `name' (0-based
// index), e.g. "iris.csv:17: column 'petal_width' (3): missing value".
#include <optional>
#include <string>
#include <vector>

#include "core/task.h"
#include "data/dataset.h"

namespace skynnet {

enum class CsvHeader { Auto, Present, Absent };

struct CsvOptions {
    // 0: detected among ',' ';' '\t' '|' as the one splitting the first lines into the same,
    // largest number of fields.
    char delimiter = 0;
    // Auto: the first row is a header when one of its fields is not a number where the second
    // row has a number, or is one word where the second row has a sentence (3 words or more).
    // Without a header, columns are named column_1, column_2, ...
    CsvHeader header = CsvHeader::Auto;
    // Target columns, each a column name or, when no column has that name, a 0-based index.
    // Empty: the last column. More than one target column means regression.
    std::vector<std::string> targets;
    // Empty: automatic. Text targets, or integer targets with few distinct values
    // (<= min(50, rows / 5)), are classification, binary when there are exactly 2 classes;
    // anything else is regression. Asking for Classification keeps 2 classes as a 2-way softmax.
    std::optional<Task> task;
    // Text data (issue 26): the column holding each row's text, by name or 0-based index. It
    // becomes the only input (Dataset::texts, no feature columns: the other columns are not read);
    // each cell must be UTF-8 and not empty. Empty: no text column.
    std::string textColumn;
};

// Feature columns that hold text become category codes (Dataset::categoricals, categories
// sorted); a column that is mostly numbers with some text is an error at its first bad cell.
// Class names are the sorted distinct target values (numerically sorted when all are numbers).
Dataset loadCsv(const std::string& path, const CsvOptions& options = {});

// Loads the feature columns a trained model expects, for prediction. The file may have the
// target column(s) or not: with a header row, columns are found by name, in any order, and
// columns the model does not use are ignored; without one, the file must hold exactly the
// feature columns in training order, or, for a model trained on a file without header (features
// named column_<k>), have that file's layout. The header is detected as present when the first row
// contains every expected name (options.header overrides; options.targets and task are unused).
// Text in a categorical column becomes its code in `categoricals` (the training categories); a
// category never seen in training gets code -1, which Preprocessing turns into an all-zero
// one-hot block. The result has features, featureNames, categoricals and sampleShape only: no
// labels or targets.
// The texts of column `textColumn` (a name, or column_<k> for a file without header), for prediction
// from a text model: Dataset::texts only. Errors as loadCsv's.
Dataset loadCsvTexts(const std::string& path, const std::string& textColumn, const CsvOptions& options = {});

Dataset loadCsvForPrediction(const std::string& path, const std::vector<std::string>& featureNames,
                             const std::vector<Dataset::Categorical>& categoricals, const CsvOptions& options = {});

}  // namespace skynnet
