#pragma once
// Number and table formats shared by the commands' terminal output.
#include <cstdint>
#include <string>
#include <vector>

namespace skynnet::cli {

// "12.3 MB" (MiB, as the process figures are counted).
std::string megabytes(std::int64_t bytes);
// "850 KB", "12.3 MB" or "1.25 GB": three significant digits whatever the size (binary units).
std::string memoryText(std::int64_t bytes);
// One number in a printf pattern: format("%.4g", 0.000123) is "0.000123".
std::string format(const char* pattern, double v);
// A fixed number of decimals: "0.8512".
std::string fixed(double v, int decimals = 4);

// Rows of cells as aligned columns two spaces apart: the columns listed in `leftAligned` (text)
// padded on the right, the others (numbers) on the left. The first row is the header.
std::string alignedTable(const std::vector<std::vector<std::string>>& rows, const std::vector<int>& leftAligned);

}  // namespace skynnet::cli
