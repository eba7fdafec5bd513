#pragma once
// What a front end tells about text data before training (issue 26): which CSV column looks like
// free text, and how long the texts are against the tokens per text a model reads.
#include <string>
#include <string_view>
#include <vector>

#include "data/dataset.h"

namespace skynnet {

// Runs of non-space (ASCII white space) characters: a cheap measure of how wordy a value is.
int wordCount(std::string_view s);

// The feature column of a CSV loaded without a text column whose values read as free text: a
// categorical column with at least max(20, rows / 4) distinct values averaging 3 words or more
// (names, cities and codes average 1 or 2). The wordiest such column's name; empty when none is.
std::string guessTextColumn(const Dataset& data);

// Tokens per text (by the tokenizer rule, data/text_vocabulary.h), sorted; the figures are nearest-rank.
struct TextLengths {
    std::vector<int> sorted;
    int median() const;
    int percentile90() const;
    int longest() const;
    // Texts with more than `maxLength` tokens, which keep only their first maxLength.
    int longerThan(int maxLength) const;
};
// Throws Error if a text is not UTF-8.
TextLengths textLengths(const std::vector<std::string>& texts);

}  // namespace skynnet
