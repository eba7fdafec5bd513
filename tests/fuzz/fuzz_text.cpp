// The text data readers (data/text_data.h, data/csv_loader.h's text column, data/text_summary.h)
// and the vocabulary fitted on what they read. The first byte picks the source and the sizes:
//   bits 0-1  0: one .txt file (loadTextFiles); 1: a text folder, DIR/<class>/<n>.txt, the rest of
//             the input split into files at "SKYNNET-TEXT-FILE" and dealt to the classes a, b and c
//             in turn (loadTextFolder, and loadTextFiles on class a); 2: a CSV with the text column
//             "text" (loadCsv, then loadCsvTexts); 3: a CSV without one (guessTextColumn)
//   bits 2-3  the vocabulary size: 3, 5, 40 or 20000
//   bits 4-5  the tokens per text: 1, 4, 16 or 200
// Texts that load are measured (textLengths), fitted (fitVocabulary) and encoded (encodeTexts); the
// vocabulary must then be written and read back equal, and every id must be below its size.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "data/csv_loader.h"
#include "data/text_data.h"
#include "data/text_summary.h"
#include "data/text_vocabulary.h"
#include "fuzz_support.h"
#include "io/json.h"

namespace {

using namespace skynnet;
namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "%s\n", what.c_str());
    std::abort();
}

// A folder per process, emptied for every input and removed at exit.
struct Folder {
    fs::path path = fuzz::tempPath("texts");
    Folder() { fs::remove_all(path); }
    ~Folder() { fs::remove_all(path); }
};

const fs::path& freshFolder() {
    static Folder folder;
    fs::remove_all(folder.path);
    fs::create_directories(folder.path / "a");
    fs::create_directories(folder.path / "b");
    fs::create_directories(folder.path / "c");
    return folder.path;
}

// Writes the parts separated by "SKYNNET-TEXT-FILE" as a/0.txt, b/1.txt, c/2.txt, a/3.txt, ...
std::string writeFolder(std::string_view bytes) {
    const fs::path& dir = freshFolder();
    static const char* const classes[] = {"a", "b", "c"};
    for (int n = 0;; ++n) {
        const auto [part, rest] = fuzz::splitAt(bytes, "SKYNNET-TEXT-FILE");
        const std::string file = (dir / classes[n % 3] / (std::to_string(n) + ".txt")).string();
        std::FILE* f = std::fopen(file.c_str(), "wb");
        if (!f || std::fwrite(part.data(), 1, part.size(), f) != part.size() || std::fclose(f) != 0) std::abort();
        if (rest.empty() || n == 30) break;
        bytes = rest;
    }
    return dir.string();
}

void fitAndEncode(Dataset& d, int vocabularySize, int maxLength) {
    const TextLengths lengths = textLengths(d.texts);
    if (lengths.sorted.size() != d.texts.size() || lengths.median() > lengths.longest() ||
        lengths.percentile90() > lengths.longest() || lengths.longerThan(maxLength) > int(d.texts.size()))
        fail("text lengths out of order");
    TextVocabulary v = fitVocabulary(d.texts, vocabularySize);
    v.maxLength = maxLength;
    if (v.size() > vocabularySize) fail("vocabulary larger than asked for");
    const std::size_t rows = d.texts.size();
    encodeTexts(d, v);
    if (std::size_t(d.features.rows()) != rows || d.features.cols() != maxLength)
        fail("encoded texts of the wrong size");
    for (Index r = 0; r < d.features.rows(); ++r)
        for (Index c = 0; c < d.features.cols(); ++c)
            if (!(d.features(r, c) >= 0 && d.features(r, c) < Scalar(v.size())))
                fail("token id outside the vocabulary");
    // A fitted vocabulary is saved with the model: it must read back as it was.
    const std::string saved = dumpJson(toJson(v));
    try {
        const Json j = parseJson(saved, "vocabulary");
        if (!(vocabularyFromJson(JsonField(j, "vocabulary")) == v))
            fail("vocabulary changed on reading back: " + saved);
    } catch (const Error& e) {
        fail(std::string("a fitted vocabulary does not read back (") + e.what() + "): " + saved);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t pick = data[0];
    static constexpr int vocabularySizes[] = {3, 5, 40, 20000};
    static constexpr int maxLengths[] = {1, 4, 16, 200};
    const int vocabularySize = vocabularySizes[(pick >> 2) & 3];
    const int maxLength = maxLengths[(pick >> 4) & 3];
    const std::string_view bytes = fuzz::asText(data + 1, size - 1);
    try {
        switch (pick & 3) {
        case 0: {
            Dataset d = loadTextFiles(fuzz::writeInput("input.txt", bytes)).data;
            fitAndEncode(d, vocabularySize, maxLength);
            break;
        }
        case 1: {
            const std::string dir = writeFolder(bytes);
            Dataset d = loadTextFolder(dir);
            if (d.labels.size() != d.texts.size()) fail("labels and texts differ in number");
            fitAndEncode(d, vocabularySize, maxLength);
            Dataset a = loadTextFiles(dir + "/a").data;
            fitAndEncode(a, vocabularySize, maxLength);
            break;
        }
        case 2: {
            const std::string path = fuzz::writeInput("input.csv", bytes);
            CsvOptions options;
            options.textColumn = "text";
            Dataset d = loadCsv(path, options);
            fitAndEncode(d, vocabularySize, maxLength);
            Dataset p = loadCsvTexts(path, "text");  // as prediction reads it
            fitAndEncode(p, vocabularySize, maxLength);
            break;
        }
        case 3: {
            const Dataset d = loadCsv(fuzz::writeInput("input.csv", bytes));
            const std::string column = guessTextColumn(d);
            if (!column.empty()) {
                CsvOptions options;
                options.textColumn = column;
                Dataset t = loadCsv(fuzz::writeInput("input.csv", bytes), options);
                fitAndEncode(t, vocabularySize, maxLength);
            }
            break;
        }
        }
    } catch (const Error& e) {
        fuzz::rejected(e);
    }
    return 0;
}
