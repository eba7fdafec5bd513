#include "data/csv_loader.h"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

#include "core/error.h"
#include "data/csv_table.h"
#include "data/text_summary.h"
#include "data/text_vocabulary.h"

namespace skynnet {
namespace {

using csv::Cell;
using csv::isMissing;
using csv::isNumber;
using csv::looksNumeric;
using csv::parseCell;
using csv::parseNumber;
using csv::readTable;
using csv::Table;

// Refused, not imputed (csv_loader.h); the cell is quoted so "NA" and an empty cell read apart.
Error missingValue(const Table& t, std::size_t r, std::size_t c) {
    const std::string_view v = t.cell(r, c);
    const std::string what = v.empty() ? std::string("empty cell") : "'" + std::string(v) + "'";
    return Error(t.at(r) + ": " + t.column(c) + ": missing value (" + what + ")");
}

float numericCell(const Table& t, std::size_t r, std::size_t c) {
    const std::string_view v = t.cell(r, c);
    if (isMissing(v)) throw missingValue(t, r, c);
    double x;
    const auto bad = [&](const char* why) {
        return Error(t.at(r) + ": " + t.column(c) + ": '" + std::string(v) + "' " + why);
    };
    switch (parseCell(v, x)) {
    case Cell::Number: return float(x);
    case Cell::NotFinite: throw bad("is not a finite number");
    case Cell::OutOfRange: throw bad("overflows float32 (magnitudes up to 3.4e38)");
    case Cell::Text: break;
    }
    throw bad("is not a number");
}

// A column is text when most of its present values are not numbers; otherwise the text cells
// are typos that must be reported, not categories.
bool isTextColumn(const Table& t, std::size_t c) { return t.texts[c] > t.numbers[c]; }

std::vector<std::string> sortedDistinct(const Table& t, std::size_t c) {
    std::vector<std::string> values;
    for (std::size_t r = 0; r < t.rows(); ++r)
        if (!isMissing(t.cell(r, c))) values.emplace_back(t.cell(r, c));
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

// The column named `spec`, or at 0-based index `spec` when none has that name; `what` ("target",
// "text") words the errors.
std::size_t resolveColumn(const Table& t, const std::string& spec, const std::string& what) {
    const auto named = std::find(t.names.begin(), t.names.end(), spec);
    if (named != t.names.end()) {
        if (std::find(named + 1, t.names.end(), spec) != t.names.end())
            throw Error(t.path + ": " + what + " column name '" + spec + "' appears more than once in the header");
        return std::size_t(named - t.names.begin());
    }
    if (!spec.empty() && std::all_of(spec.begin(), spec.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
        const std::size_t c = std::size_t(std::stoull(spec.size() > 9 ? "999999999" : spec));
        if (c >= t.cols)
            throw Error(t.path + ": " + what + " column index " + spec + " is out of range: the file has " +
                        std::to_string(t.cols) + " columns (0 to " + std::to_string(t.cols - 1) + ")");
        return c;
    }
    throw Error(t.path + ": no " + what + " column named '" + spec + "' (columns: " + t.nameList() + ")");
}

// Every row's text in column c, each checked: UTF-8 and not empty, the error at its line.
std::vector<std::string> textCells(const Table& t, std::size_t c) {
    std::vector<std::string> texts;
    texts.reserve(t.rows());
    for (std::size_t r = 0; r < t.rows(); ++r) {
        const std::string_view v = t.cell(r, c);
        checkUtf8(v, t.at(r) + ": " + t.column(c), EmptyText::refused);
        texts.emplace_back(v);
    }
    return texts;
}

std::vector<std::size_t> resolveTargets(const Table& t, const std::vector<std::string>& specs) {
    std::vector<std::size_t> cols;
    for (const std::string& spec : specs) {
        const std::size_t c = resolveColumn(t, spec, "target");
        if (std::find(cols.begin(), cols.end(), c) != cols.end())
            throw Error(t.path + ": target " + t.column(c) + " is given twice");
        cols.push_back(c);
    }
    if (cols.empty()) cols.push_back(t.cols - 1);
    return cols;
}

// Class list and per-row label of one target column: sorted text, or sorted numbers when every
// value is a number (so "10" comes after "9").
struct ClassColumn {
    std::vector<std::string> names;
    bool numeric = false;
    std::vector<double> values;                     // numeric classes, sorted
    std::map<std::string, int, std::less<>> index;  // text classes

    ClassColumn(const Table& t, std::size_t c) {
        std::vector<std::string> texts = sortedDistinct(t, c);
        // A class column of numbers stays one when a cell is "inf" or 1e39: loadCsv reports that cell.
        numeric = !texts.empty() &&
                  std::all_of(texts.begin(), texts.end(), [](const std::string& s) { return looksNumeric(s); });
        if (!numeric) {
            for (std::size_t i = 0; i < texts.size(); ++i) index.emplace(texts[i], int(i));
            names = std::move(texts);
            return;
        }
        std::vector<std::pair<double, std::string>> byValue;
        for (const std::string& s : texts) {
            double v;
            if (!parseNumber(s, v)) continue;
            byValue.emplace_back(v, std::fabs(v) < 1e15 && v == std::floor(v) ? std::to_string((long long)v) : s);
        }
        std::sort(byValue.begin(), byValue.end());
        for (const auto& [v, name] : byValue)
            if (values.empty() || values.back() != v) values.push_back(v), names.push_back(name);
    }
    int labelOf(std::string_view s) const {
        if (!numeric) return index.find(s)->second;
        double v;
        parseNumber(s, v);
        return int(std::lower_bound(values.begin(), values.end(), v) - values.begin());
    }
};

// Automatic task for one target column: text or few distinct integers mean classes.
Task guessTask(const Table& t, std::size_t c) {
    if (t.texts[c] > 0) {
        if (t.texts[c] <= t.numbers[c]) return Task::Regression;  // a typo among numbers: the conversion reports it
        return sortedDistinct(t, c).size() == 2 ? Task::Binary : Task::Classification;
    }
    const std::size_t limit = std::min<std::size_t>(50, t.rows() / 5);
    std::vector<double> distinct;
    for (std::size_t r = 0; r < t.rows() && distinct.size() <= limit; ++r) {
        double v;
        if (!parseNumber(t.cell(r, c), v)) continue;  // missing: the conversion reports it
        if (v != std::floor(v)) return Task::Regression;
        if (std::find(distinct.begin(), distinct.end(), v) == distinct.end()) distinct.push_back(v);
    }
    if (distinct.empty() || distinct.size() > limit) return Task::Regression;
    return distinct.size() == 2 ? Task::Binary : Task::Classification;
}

}  // namespace

Dataset loadCsv(const std::string& path, const CsvOptions& options) {
    // A first row naming the text column is the header, even when no column below it holds numbers
    // ("text,label" over "great film,pos").
    const std::vector<std::string> textName = {options.textColumn};
    const Table t = readTable(path, options, options.textColumn.empty() ? nullptr : &textName);
    const std::vector<std::size_t> targetCols = resolveTargets(t, options.targets);
    std::vector<std::size_t> featureCols;
    Dataset d;
    d.source = path;
    if (!options.textColumn.empty()) {
        // The text is the only input: the other columns are not read (csv_loader.h).
        const std::size_t c = resolveColumn(t, options.textColumn, "text");
        if (std::find(targetCols.begin(), targetCols.end(), c) != targetCols.end())
            throw Error(path + ": the text " + t.column(c) + " is also the target column" +
                        (options.targets.empty() ? " (the last column; name the target with --target)" : ""));
        d.texts = textCells(t, c);
        d.textColumn = t.names[c];
        d.vocabulary = TextVocabulary{};
    } else {
        for (std::size_t c = 0; c < t.cols; ++c)
            if (std::find(targetCols.begin(), targetCols.end(), c) == targetCols.end()) featureCols.push_back(c);
        if (featureCols.empty()) throw Error(path + ": no feature columns left after taking the target column(s)");
    }
    if (targetCols.size() > 1) {
        if (options.task && *options.task != Task::Regression)
            throw Error(path + ": " + std::to_string(targetCols.size()) +
                        " target columns need the regression task, not " + taskName(*options.task));
        d.task = Task::Regression;
    } else {
        d.task = options.task ? *options.task : guessTask(t, targetCols[0]);
    }

    // Text feature columns become category codes over their sorted distinct values.
    std::vector<std::map<std::string, int, std::less<>>> codes(featureCols.size());
    for (std::size_t f = 0; f < featureCols.size(); ++f) {
        d.featureNames.push_back(t.names[featureCols[f]]);
        if (!isTextColumn(t, featureCols[f])) continue;
        Dataset::Categorical cat{int(f), sortedDistinct(t, featureCols[f])};
        for (std::size_t i = 0; i < cat.categories.size(); ++i) codes[f].emplace(cat.categories[i], int(i));
        d.categoricals.push_back(std::move(cat));
    }

    const bool classes = d.task != Task::Regression;
    std::optional<ClassColumn> classColumn;
    if (classes) classColumn.emplace(t, targetCols[0]);
    d.features.resize(Index(t.rows()), Index(featureCols.size()));
    if (classes) d.labels.resize(t.rows());
    else d.targets.resize(Index(t.rows()), Index(targetCols.size()));

    // Row by row so that the first error reported is the first one in the file.
    for (std::size_t r = 0; r < t.rows(); ++r) {
        for (std::size_t f = 0; f < featureCols.size(); ++f) {
            const std::size_t c = featureCols[f];
            if (codes[f].empty()) {
                d.features(Index(r), Index(f)) = numericCell(t, r, c);
                continue;
            }
            const std::string_view v = t.cell(r, c);
            if (isMissing(v)) throw missingValue(t, r, c);
            d.features(Index(r), Index(f)) = Scalar(codes[f].find(v)->second);
        }
        for (std::size_t k = 0; k < targetCols.size(); ++k) {
            const std::size_t c = targetCols[k];
            if (!classes) {
                d.targets(Index(r), Index(k)) = numericCell(t, r, c);
                continue;
            }
            if (isMissing(t.cell(r, c))) throw missingValue(t, r, c);
            if (classColumn->numeric) numericCell(t, r, c);  // reports "inf" or 1e39 at its line
            d.labels[r] = classColumn->labelOf(t.cell(r, c));
        }
    }

    d.sampleShape = Shape::flat(int(featureCols.size()));
    if (classes) {
        d.classNames = classColumn->names;
        d.labelColumn = t.names[targetCols[0]];
        if (d.task == Task::Binary && d.classNames.size() != 2) {
            std::string list;
            for (std::size_t i = 0; i < d.classNames.size() && i < 10; ++i) list += (i ? ", " : "") + d.classNames[i];
            throw Error(path + ": target " + t.column(targetCols[0]) +
                        ": a binary task needs exactly 2 classes, found " + std::to_string(d.classNames.size()) + " (" +
                        list + (d.classNames.size() > 10 ? ", ...)" : ")"));
        }
    } else {
        for (std::size_t c : targetCols) d.targetNames.push_back(t.names[c]);
    }
    d.validate();
    return d;
}

Dataset loadCsvTexts(const std::string& path, const std::string& textColumn, const CsvOptions& options) {
    const std::vector<std::string> expected = {textColumn};
    const Table t = readTable(path, options, &expected);
    std::size_t c = t.cols;
    if (t.header || textColumn.rfind("column_", 0) != 0) {
        const auto it = std::find(t.names.begin(), t.names.end(), textColumn);
        if (it == t.names.end() && !t.header)
            throw Error(path + ": the model reads its texts from column '" + textColumn +
                        "', and the file has no header row naming it");
        if (it == t.names.end())
            throw Error(path + ": the model reads its texts from column '" + textColumn +
                        "', not in the header (columns: " + t.nameList() + ")");
        c = std::size_t(it - t.names.begin());
    } else {
        // A model trained on a file without header: the text column is named column_<k>.
        const std::size_t k = std::size_t(std::atoi(textColumn.c_str() + 7));
        if (k == 0 || k > t.cols)
            throw Error(path + ": the model reads its texts from " + textColumn + ", but the file has " +
                        std::to_string(t.cols) + " columns and no header row naming them");
        c = k - 1;
    }
    Dataset d;
    d.source = path;
    d.texts = textCells(t, c);
    d.textColumn = t.names[c];
    d.vocabulary = TextVocabulary{};
    d.features.resize(Index(d.texts.size()), 0);
    d.sampleShape = Shape::flat(0);
    return d;
}

Dataset loadCsvForPrediction(const std::string& path, const std::vector<std::string>& featureNames,
                             const std::vector<Dataset::Categorical>& categoricals, const CsvOptions& options) {
    if (featureNames.empty()) throw Error(path + ": the model names no feature columns to read");
    const Table t = readTable(path, options, &featureNames);
    std::vector<std::size_t> cols;
    if (t.header) {
        std::string missing;
        for (const std::string& name : featureNames) {
            const auto it = std::find(t.names.begin(), t.names.end(), name);
            if (it == t.names.end()) missing += (missing.empty() ? "'" : ", '") + name + "'";
            else cols.push_back(std::size_t(it - t.names.begin()));
        }
        if (!missing.empty())
            throw Error(path + ": the model needs column(s) " + missing +
                        ", not in the header (columns: " + t.nameList() + ")");
    } else if (t.cols == featureNames.size()) {
        for (std::size_t c = 0; c < t.cols; ++c) cols.push_back(c);
    } else {
        // A model trained on a file without header has features named column_<k>: k is the
        // position in a file that still has its target column.
        for (const std::string& name : featureNames) {
            const std::size_t k = name.rfind("column_", 0) == 0 ? std::size_t(std::atoi(name.c_str() + 7)) : 0;
            if (k == 0 || k > t.cols) {
                cols.clear();
                break;
            }
            cols.push_back(k - 1);
        }
        if (cols.empty())
            throw Error(path + ": no header row naming the columns, and " + std::to_string(t.cols) +
                        " columns where the model expects its " + std::to_string(featureNames.size()) +
                        " feature columns in training order (with a header row, columns are matched by name)");
    }

    std::vector<const Dataset::Categorical*> categoryOf(featureNames.size(), nullptr);
    for (const Dataset::Categorical& cat : categoricals) {
        if (cat.column < 0 || std::size_t(cat.column) >= featureNames.size())
            throw Error(path + ": the model's categorical column index " + std::to_string(cat.column) +
                        " is out of range");
        categoryOf[std::size_t(cat.column)] = &cat;
    }

    Dataset d;
    d.source = path;
    d.featureNames = featureNames;
    d.categoricals = categoricals;
    d.sampleShape = Shape::flat(int(featureNames.size()));
    d.features.resize(Index(t.rows()), Index(featureNames.size()));
    for (std::size_t r = 0; r < t.rows(); ++r)
        for (std::size_t f = 0; f < cols.size(); ++f) {
            const std::size_t c = cols[f];
            if (!categoryOf[f]) {
                d.features(Index(r), Index(f)) = numericCell(t, r, c);
                continue;
            }
            const std::string_view v = t.cell(r, c);
            if (isMissing(v)) throw missingValue(t, r, c);
            const auto& cats = categoryOf[f]->categories;
            const auto it = std::find(cats.begin(), cats.end(), v);
            d.features(Index(r), Index(f)) = it == cats.end() ? Scalar(-1) : Scalar(it - cats.begin());
        }
    return d;
}

}  // namespace skynnet
