#include "data/prepared_data.h"

#include <algorithm>

#include "core/error.h"
#include "data/partition.h"

namespace skynnet {
namespace {

// Raw features -> network inputs, in place; the one-hot columns are no longer categorical. The
// raw features are freed: for image sets they are hundreds of megabytes nothing reads again.
void transform(Dataset& d, const Preprocessing& p, const std::vector<std::string>& names) {
    d.features = p.apply(d.features);
    if (p.outputColumns() != d.sampleShape.size()) d.sampleShape = Shape::flat(p.outputColumns());
    d.featureNames = names;
    d.categoricals.clear();
}

// The training rows' texts in file order, so that tokens of equal count get their ids by first
// appearance in the file, whatever order the split leaves the rows in.
std::vector<std::string> trainingTexts(const Dataset& all, const PreparationSettings& s) {
    std::vector<int> rows =
        splitForTraining(all, s.validationFraction, s.testFraction, s.separateTestFile, s.seed).train;
    std::sort(rows.begin(), rows.end());
    std::vector<std::string> texts;
    texts.reserve(rows.size());
    for (int r : rows) texts.push_back(all.texts[std::size_t(r)]);
    return texts;
}

// Text: every part's texts encoded by the vocabulary of the training rows only, and the
// preprocessing fitted on the ids as an identity, so ids reach the network unscaled.
void fitText(PreparedData& p, const Dataset& all, const PreparationSettings& s) {
    const TextVocabulary v = fitTextVocabulary(all, s);
    for (Dataset* part : {&p.train, &p.validation, &p.test}) encodeTexts(*part, v);
    p.schema.vocabulary = v;
    p.schema.sampleShape = p.train.sampleShape;
    p.schema.featureNames = p.train.featureNames;
    p.preprocessing.scaling = Scaling::None;
    p.preprocessing.fit(p.train);
}

}  // namespace

TextVocabulary fitTextVocabulary(const Dataset& all, const PreparationSettings& s) {
    const TextSettings& settings = s.text;
    if (settings.maxLength < 1 || settings.maxLength > maxTextLength)
        throw Error("the text length (--max-length) must be between 1 and " + std::to_string(maxTextLength) + ", not " +
                    std::to_string(settings.maxLength));
    if (settings.vocabularySize > maxVocabularySize)
        throw Error("the vocabulary size (--vocab) must be at most " + std::to_string(maxVocabularySize) + ", not " +
                    std::to_string(settings.vocabularySize));
    TextVocabulary v = fitVocabulary(trainingTexts(all, s), settings.vocabularySize);
    v.maxLength = settings.maxLength;
    return v;
}

PreparedData splitAndFit(const Dataset& all, const PreparationSettings& s) {
    DataPartition part = partitionData(all, s.validationFraction, s.testFraction, s.separateTestFile, s.seed,
                                       all.isText() ? Scaling::None : s.scaling);
    PreparedData p;
    p.schema = all.schema();
    p.preprocessing = std::move(part.preprocessing);
    p.train = std::move(part.train);
    p.validation = std::move(part.validation);
    p.test = std::move(part.test);
    p.warnings = std::move(part.warnings);
    if (all.isText()) fitText(p, all, s);
    if (const std::string skipped = all.skippedFilesWarning(); !skipped.empty())
        p.warnings.insert(p.warnings.begin(), skipped);
    return p;
}

void applyPreprocessing(PreparedData& p, const Dataset* test) {
    if (test) p.test = *test;
    if (p.schema.isText()) encodeTexts(p.test, *p.schema.vocabulary);  // a test set loaded before the fit
    const auto names = p.preprocessing.outputNames(p.schema.featureNames);
    transform(p.train, p.preprocessing, names);
    transform(p.validation, p.preprocessing, names);
    transform(p.test, p.preprocessing, names);
}

PreparedData prepareData(const Dataset& all, const Dataset* test, PreparationSettings settings) {
    settings.separateTestFile = test != nullptr;
    PreparedData p = splitAndFit(all, settings);
    applyPreprocessing(p, test);
    return p;
}

Shape networkInputShape(const PreparedData& p) {
    const int columns = p.preprocessing.outputColumns();
    return Index(columns) == p.schema.sampleShape.size() && p.preprocessing.oneHot.empty() ? p.schema.sampleShape
                                                                                           : Shape::flat(columns);
}

int vocabularySize(const PreparedData& p) { return p.schema.isText() ? p.schema.vocabulary->size() : 0; }

}  // namespace skynnet
