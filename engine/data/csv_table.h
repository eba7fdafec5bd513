#pragma once
// Reading a CSV/TSV file into a table of text cells (csv_loader.h gives them meaning): RFC 4180
// records, the delimiter detected, a header told from data, every data row's line kept for
// messages; and what a cell is (missing, a number a float network can use, or text).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "data/csv_loader.h"

namespace skynnet::csv {

// "", "?", "NA", "nan" in any case: a missing value.
bool isMissing(std::string_view s);
// What a cell that may be a number is to a float network. "inf", "nan" and 3.5e39 are numbers in
// the file but none a network can learn from: they are told apart from text so that their column
// stays numeric and the message says what is wrong with the cell.
enum class Cell { Number, NotFinite, OutOfRange, Text };
Cell parseCell(std::string_view s, double& value);
bool parseNumber(std::string_view s, double& value);  // finite numbers that fit a float
bool isNumber(std::string_view s);
bool looksNumeric(std::string_view s);  // a number, usable or not: whether a column holds numbers or text

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

// The file's rows (Error naming the file and line: empty, ragged, unreadable). expectedNames: the
// columns a model was trained on; a first row naming them all is a header, whatever else it holds.
Table readTable(const std::string& path, const CsvOptions& options, const std::vector<std::string>* expectedNames);

}  // namespace skynnet::csv
