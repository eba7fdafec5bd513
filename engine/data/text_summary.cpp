#include "data/text_summary.h"

#include <algorithm>
#include <cctype>

#include "data/text_vocabulary.h"

namespace skynnet {

int wordCount(std::string_view s) {
    int n = 0;
    bool inWord = false;
    for (const char c : s) {
        const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
        if (!space && !inWord) ++n;
        inWord = !space;
    }
    return n;
}

std::string guessTextColumn(const Dataset& data) {
    if (data.isText()) return {};
    const std::size_t enough = std::max<std::size_t>(20, std::size_t(data.size()) / 4);
    std::string best;
    double bestWords = 3.0 - 1e-9;
    for (const ModelSchema::Categorical& c : data.categoricals) {
        if (c.categories.size() < enough || std::size_t(c.column) >= data.featureNames.size()) continue;
        double total = 0;
        for (const std::string& value : c.categories) total += wordCount(value);
        const double mean = total / double(c.categories.size());
        if (mean > bestWords) {
            bestWords = mean;
            best = data.featureNames[std::size_t(c.column)];
        }
    }
    return best;
}

TextLengths textLengths(const std::vector<std::string>& texts) {
    TextLengths l;
    l.sorted.reserve(texts.size());
    for (const std::string& t : texts) l.sorted.push_back(int(tokenizeText(t).size()));
    std::sort(l.sorted.begin(), l.sorted.end());
    return l;
}

int TextLengths::median() const { return sorted.empty() ? 0 : sorted[(sorted.size() + 1) / 2 - 1]; }

int TextLengths::percentile90() const { return sorted.empty() ? 0 : sorted[(sorted.size() * 9 + 9) / 10 - 1]; }

int TextLengths::longest() const { return sorted.empty() ? 0 : sorted.back(); }

int TextLengths::longerThan(int maxLength) const {
    return int(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), maxLength));
}

}  // namespace skynnet
