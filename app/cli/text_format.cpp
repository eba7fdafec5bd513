#include "text_format.h"

#include <algorithm>
#include <cstdio>

namespace skynnet::cli {

std::string format(const char* pattern, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, pattern, v);
    return buf;
}

std::string megabytes(std::int64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MB", double(bytes) / (1024.0 * 1024.0));
    return buf;
}

std::string memoryText(std::int64_t bytes) {
    const double kb = double(bytes) / 1024.0, mb = kb / 1024.0, gb = mb / 1024.0;
    char buf[32];
    if (kb < 1000) std::snprintf(buf, sizeof buf, "%.3g KB", kb);
    else if (mb < 1000) std::snprintf(buf, sizeof buf, "%.3g MB", mb);
    else std::snprintf(buf, sizeof buf, "%.3g GB", gb);
    return buf;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string alignedTable(const std::vector<std::vector<std::string>>& rows, const std::vector<int>& leftAligned) {
    std::vector<std::size_t> width;
    for (const auto& r : rows) {
        width.resize(std::max(width.size(), r.size()), 0);
        for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
    }
    std::string out;
    for (const auto& r : rows) {
        std::string line;
        for (std::size_t c = 0; c < r.size(); ++c) {
            const std::string pad(width[c] - r[c].size(), ' ');
            const bool left = std::find(leftAligned.begin(), leftAligned.end(), int(c)) != leftAligned.end();
            line += (c ? "  " : "") + (left ? r[c] + pad : pad + r[c]);
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
    return out;
}

}  // namespace skynnet::cli
