#include "data/csv_table.h"

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "data/text_summary.h"

namespace skynnet::csv {
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

std::string delimiterName(char d) { return d == '\t' ? std::string("tab") : "'" + std::string(1, d) + "'"; }

}  // namespace

// Called for every cell, so the common case (a number) must return at once.
bool isMissing(std::string_view s) {
    if (s.empty()) return true;
    if (s.size() > 3 || (s[0] != 'n' && s[0] != 'N' && s[0] != '?')) return false;
    return s == "?" || equalsIgnoringCase(s, "na") || equalsIgnoringCase(s, "nan");
}

// What a cell that may be a number is to a float network. "inf", "nan" and 3.5e39 are numbers in
// the file but none a network can learn from: they are told apart from text so that their column
// stays numeric and the message says what is wrong with the cell.
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

Table readTable(const std::string& path, const CsvOptions& options, const std::vector<std::string>* expectedNames) {
    const std::string text = readWholeFile(path);
    // An image or an archive named .csv would otherwise fail as a table with a field count no one
    // can make sense of: a NUL byte is never in a text table.
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
        throw Error(path +
                    ": not a text table: it holds NUL bytes, as a binary file does (an image, an archive?); "
                    "the first is byte " +
                    std::to_string(nul + 1));
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
        if (record.size() != t.cols && t.cols == 1)  // most likely not this delimiter's table at all
            throw Error(path + ": found only one column: is the delimiter a comma, a semicolon, a tab or '|'? (line " +
                        std::to_string(line) + " has " + std::to_string(record.size()) + " fields split by " +
                        delimiterName(delimiter) + ", line " + std::to_string(firstLine) + " has 1)");
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

}  // namespace skynnet::csv
