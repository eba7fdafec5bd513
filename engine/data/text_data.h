#pragma once
// Text datasets (issue 26): where texts come from and how they become token ids.
//
// Sources: a CSV/TSV column (CsvOptions::textColumn, data/csv_loader.h) or a text folder,
// DIR/<class>/<file>.txt, one subfolder per class as the usual sentiment corpora are laid out
// (train/pos, train/neg). A loaded text set holds its raw texts (Dataset::texts, no feature
// columns) and an unfitted vocabulary. Preparation fits the vocabulary on the training rows only
// and encodes every row into Shape::steps(L, 1) of token ids as floats (exact: the vocabulary is
// below 2^24), which are never scaled.
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/text_vocabulary.h"

namespace skynnet {

// How texts are tokenised: the vocabulary cap (--vocab, padding and unknown ids included) and the
// tokens per text (--max-length: longer texts keep their first L tokens, shorter ones are
// pre-padded).
struct TextSettings {
    int vocabularySize = 20000;
    int maxLength = 200;
    bool operator==(const TextSettings&) const = default;
};

// A folder whose class subfolders hold .txt files (the first file met with a .txt or image
// extension decides; hidden entries are ignored). Does not throw.
bool isTextFolder(const std::string& path);

// DIR/<class>/*.txt: classes are the subfolders (hidden ones excepted) sorted by name, files read in
// name order, other files ignored. Each file is one text, which must be UTF-8 and not empty: the
// error names the file ("DIR/pos/3.txt: text is not UTF-8 (byte 0xff at column 5)"). Throws Error
// naming the folder when it has no class subfolder or no .txt file.
Dataset loadTextFolder(const std::string& dir);

// Whether the file name ends in .txt (any case): a text file, one text.
bool isTextFileName(const std::string& path);

// Unlabelled texts for prediction: `path` is one .txt file, or a flat folder whose .txt files (not
// its subfolders') are read in name order, hidden ones excepted. `paths` holds the file of each row.
// Each file is one text, which must be UTF-8 and not empty: the error names the file. Throws Error
// naming the folder when it holds no .txt file.
struct TextFiles {
    Dataset data;  // raw texts (Dataset::texts) and an unfitted vocabulary, no labels
    std::vector<std::string> paths;
};
TextFiles loadTextFiles(const std::string& path);

// The feature names of L token ids: token_1 ... token_L.
std::vector<std::string> tokenFeatureNames(int length);

// Raw texts -> token ids by `vocabulary` (fitted: maxLength >= 1): features (rows, L), sampleShape
// Shape::steps(L, 1), featureNames tokenFeatureNames(L), the vocabulary kept, texts freed. A dataset
// already encoded is left as it is.
void encodeTexts(Dataset& d, const TextVocabulary& vocabulary);

}  // namespace skynnet
