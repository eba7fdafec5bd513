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
#include "data/text_summary.h"
#include "data/text_vocabulary.h"

namespace skynnet {
namespace {

std::string readWholeFile(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw Error(path + ": is a directory, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot open file (" + std::strerror(errno) + ")");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    std::string text = std::move(buffer).str();
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);  // spreadsheets write a BOM
    return text;
}

bool equalsIgnoringCase(std::string_view s, std::string_view lower) {
    if (s.size() != lower.size()) return false;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (char(std::tolower((unsigned char)s[i])) != lower[i]) return false;
    return true;
}

// Called for every cell, so the common case (a number) must return at once.
bool isMissing(std::string_view s) {
    if (s.empty()) return true;
    if (s.size() > 3 || (s[0] != 'n' && s[0] != 'N' && s[0] != '?')) return false;
    return s == "?" || equalsIgnoringCase(s, "na") || equalsIgnoringCase(s, "nan");
}

// What a cell that may be a number is to a float network. "inf", "nan" and 3.5e39 are numbers in
// the file but none a network can learn from: they are told apart from text so that their column
// stays numeric and the message says what is wrong with the cell.
enum class Cell { Number, NotFinite, OutOfRange, Text };

Cell parseCell(std::string_view s, double& value) {
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    if (s.empty() || s[0] == '+') return Cell::Text;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (end != s.data() + s.size()) return Cell::Text;
    if (ec == std::errc::result_out_of_range) return Cell::OutOfRange;  // beyond a double, either way
    if (ec != std::errc()) return Cell::Text;
    if (!std::isfinite(value)) return Cell::NotFinite;
    return std::fabs(value) <= FLT_MAX ? Cell::Number : Cell::OutOfRange;
}

// Finite numbers that fit a float.
bool parseNumber(std::string_view s, double& value) { return parseCell(s, value) == Cell::Number; }

bool isNumber(std::string_view s) {
    double v;
    return parseNumber(s, v);
}

// A number, usable or not: what decides whether a column holds numbers or text.
bool looksNumeric(std::string_view s) {
    double v;
    return parseCell(s, v) != Cell::Text;
}

// Splits text into records of fields, RFC 4180 style, counting physical lines for messages.
class RecordReader {
public:
    RecordReader(std::string_view text, char delimiter, const std::string& path)
        : text_(text), delim_(delimiter), path_(path) {}

    // The next record that is not a blank line; false at the end of the text.
    bool next(std::vector<std::string>& fields) {
        for (;;) {
            if (pos_ >= text_.size()) return false;
            recordLine_ = line_;
            std::size_t count = 0;
            bool quoted = false;
            for (;;) {
                if (fields.size() <= count) fields.emplace_back();
                std::string& field = fields[count++];
                field.clear();
                while (pos_ < text_.size() && isSpace(text_[pos_])) ++pos_;
                if (pos_ < text_.size() && text_[pos_] == '"') {
                    quoted = true;
                    readQuoted(field);
                } else {
                    readPlain(field);
                }
                if (pos_ < text_.size() && text_[pos_] == delim_) {
                    ++pos_;
                    continue;
                }
                if (pos_ < text_.size() && text_[pos_] == '\r') ++pos_;
                if (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
                ++line_;
                break;
            }
            fields.resize(count);
            if (count == 1 && !quoted && fields[0].empty()) continue;
            return true;
        }
    }
    int line() const { return recordLine_; }  // 1-based line where the last record started

private:
    bool isSpace(char c) const { return c != delim_ && (c == ' ' || c == '\t'); }

    void readPlain(std::string& field) {
        const std::size_t start = pos_;
        while (pos_ < text_.size() && text_[pos_] != delim_ && text_[pos_] != '\n' && text_[pos_] != '\r') ++pos_;
        std::size_t end = pos_;
        while (end > start && isSpace(text_[end - 1])) --end;
        field.assign(text_.substr(start, end - start));
    }

    void readQuoted(std::string& field) {
        const int startLine = line_;
        ++pos_;
        for (;;) {
            if (pos_ >= text_.size())
                throw Error(path_ + ":" + std::to_string(startLine) + ": quoted field is never closed");
            const char c = text_[pos_];
            if (c == '"') {
                if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
                    field += '"';
                    pos_ += 2;
                    continue;
                }
                ++pos_;
                break;
            }
            if (c == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') {
                ++pos_;  // a CRLF inside quotes is kept as one '\n'
                continue;
            }
            if (c == '\n' || c == '\r') ++line_;
            field += c;
            ++pos_;
        }
        while (pos_ < text_.size() && isSpace(text_[pos_])) ++pos_;
        if (pos_ < text_.size() && text_[pos_] != delim_ && text_[pos_] != '\n' && text_[pos_] != '\r')
            throw Error(path_ + ":" + std::to_string(line_) + ": unexpected '" + std::string(1, text_[pos_]) +
                        "' after a closing quote (a quote inside a quoted field is written \"\")");
    }

    std::string_view text_;
    char delim_;
    const std::string& path_;
    std::size_t pos_ = 0;
    int line_ = 1;
    int recordLine_ = 0;
};

// The candidate splitting the first records into the same, largest number of fields.
char detectDelimiter(std::string_view text, const std::string& path) {
    const std::string_view sample = text.substr(0, 1 << 16);
    const bool cut = sample.size() < text.size();
    char best = ',', fallback = ',';
    std::size_t bestFields = 1, fallbackFields = 1;
    for (char d : {',', ';', '\t', '|'}) {
        std::vector<std::size_t> counts;
        try {
            RecordReader reader(sample, d, path);
            std::vector<std::string> fields;
            while (counts.size() < 50 && reader.next(fields)) counts.push_back(fields.size());
        } catch (const Error&) {
            if (counts.empty()) continue;  // a quote cut at the sample's end: judge what was read
        }
        if (cut && counts.size() > 1) counts.pop_back();  // may be cut short
        if (counts.empty()) continue;
        if (counts[0] > fallbackFields) fallback = d, fallbackFields = counts[0];
        const bool consistent = std::all_of(counts.begin(), counts.end(),
                                            [&](std::size_t n) { return n == counts[0]; });
        if (consistent && counts[0] > bestFields) best = d, bestFields = counts[0];
    }
    // Without a consistent candidate, the widest first line lets the field-count error name the line.
    return bestFields > 1 ? best : fallback;
}

// The data rows of a file, stored compactly: one string of all fields and their end offsets.
struct Table {
    std::string path;
    std::vector<std::string> names;  // from the header row, or column_1, column_2, ...
    bool header = false;
    std::size_t cols = 0;
    std::vector<int> lines;                   // 1-based line where each data row starts
    std::string cells;                        // every field of every data row, back to back
    std::vector<std::uint32_t> ends;          // end of field r * cols + c in cells
    std::vector<std::size_t> numbers, texts;  // per column: cells that are numbers, other present cells

    std::size_t rows() const { return lines.size(); }
    std::string_view cell(std::size_t r, std::size_t c) const {
        const std::size_t i = r * cols + c;
        const std::size_t begin = i ? ends[i - 1] : 0;
        return std::string_view(cells).substr(begin, ends[i] - begin);
    }
    std::string at(std::size_t r) const { return path + ":" + std::to_string(lines[r]); }
    std::string column(std::size_t c) const { return "column '" + names[c] + "' (" + std::to_string(c) + ")"; }
    std::string nameList() const {
        std::string s;
        for (std::size_t c = 0; c < names.size() && c < 20; ++c) s += (c ? ", " : "") + names[c];
        return names.size() > 20 ? s + ", ..." : s;
    }
};

bool looksLikeHeader(const std::vector<std::string>& first, const std::vector<std::string>* second) {
    // A lone row is a header only when it has no number: "7,blue" is one sample to predict.
    if (!second) return std::none_of(first.begin(), first.end(), [](const std::string& s) { return isNumber(s); });
    for (std::size_t i = 0; i < first.size() && i < second->size(); ++i) {
        if (isMissing(first[i]) || isNumber(first[i])) continue;
        if (isNumber((*second)[i])) return true;
        // A one-word name over a sentence: "text,label" above "great film, fine cast,pos", where
        // no column holds numbers to tell the header by.
        if (wordCount(first[i]) == 1 && wordCount((*second)[i]) >= 3) return true;
    }
    return false;
}

Table readTable(const std::string& path, const CsvOptions& options, const std::vector<std::string>* expectedNames) {
    const std::string text = readWholeFile(path);
    const char delimiter = options.delimiter ? options.delimiter : detectDelimiter(text, path);
    RecordReader reader(text, delimiter, path);
    std::vector<std::string> first, second, fields;
    if (!reader.next(first)) throw Error(path + ": the file is empty");
    const int firstLine = reader.line();
    const bool haveSecond = reader.next(second);
    const int secondLine = reader.line();

    bool header = options.header == CsvHeader::Present;
    if (options.header == CsvHeader::Auto) {
        const bool namesAll = expectedNames && !expectedNames->empty() &&
                              std::all_of(expectedNames->begin(), expectedNames->end(), [&](const std::string& n) {
                                  return std::find(first.begin(), first.end(), n) != first.end();
                              });
        header = namesAll || looksLikeHeader(first, haveSecond ? &second : nullptr);
    }

    Table t;
    t.path = path;
    t.header = header;
    t.cols = first.size();
    for (std::size_t c = 0; c < t.cols; ++c)
        t.names.push_back(header && !first[c].empty() ? first[c] : "column_" + std::to_string(c + 1));
    auto add = [&](const std::vector<std::string>& record, int line) {
        if (record.size() != t.cols)
            throw Error(path + ":" + std::to_string(line) + ": expected " + std::to_string(t.cols) +
                        " fields (as on line " + std::to_string(firstLine) + "), found " +
                        std::to_string(record.size()));
        for (std::size_t c = 0; c < t.cols; ++c) {
            const std::string& f = record[c];
            if (!isMissing(f)) ++(looksNumeric(f) ? t.numbers : t.texts)[c];
            t.cells += f;
            if (t.cells.size() > UINT32_MAX) throw Error(path + ": file too large (over 4 GB of fields)");
            t.ends.push_back(std::uint32_t(t.cells.size()));
        }
        t.lines.push_back(line);
    };
    t.cells.reserve(text.size());
    t.numbers.assign(t.cols, 0);
    t.texts.assign(t.cols, 0);
    if (!header) add(first, firstLine);
    if (haveSecond) {
        add(second, secondLine);
        while (reader.next(fields)) add(fields, reader.line());
    }
    if (t.rows() == 0) throw Error(path + ": no data rows, only the header line");
    return t;
}

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
