#include "data/text_data.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "core/error.h"
#include "data/image_decode.h"

namespace skynnet {
namespace fs = std::filesystem;
namespace {

bool hidden(const fs::path& p) { return p.filename().string().rfind('.', 0) == 0; }

// The non-hidden entries of `dir` that pass `keep`, sorted by name so that rows come in the same
// order on every machine.
template <class Keep>
std::vector<fs::path> sortedEntries(const fs::path& dir, Keep keep) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (!hidden(it->path()) && keep(it->path())) out.push_back(it->path());
    if (ec) throw Error(dir.string() + ": cannot list the folder (" + ec.message() + ")");
    std::sort(out.begin(), out.end());
    return out;
}

bool isTextFile(const fs::path& p) {
    std::error_code ec;
    return isTextFileName(p.string()) && fs::is_regular_file(p, ec);
}

std::string readTextFile(const fs::path& path) {
    const std::size_t limit = std::size_t(maxTextLength) * 4;  // 4 bytes per character at most
    const auto tooLong = [&](std::uintmax_t bytes) {
        return Error(path.string() + ": " + std::to_string(bytes) + " bytes is more than a text may hold");
    };
    // Before reading: a huge file (a disk image named .txt) must not be read into memory first.
    std::error_code ec;
    if (const std::uintmax_t bytes = fs::file_size(path, ec); !ec && bytes > limit) throw tooLong(bytes);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path.string() + ": cannot open file");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    std::string text = std::move(buffer).str();
    if (text.size() > limit) throw tooLong(text.size());            // it grew since it was measured
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);  // editors write a BOM
    return text;
}

// One file's text, checked: UTF-8 and not empty, the error naming the file.
std::string checkedText(const fs::path& path) {
    std::string text = readTextFile(path);
    checkUtf8(text, path.string(), EmptyText::refused);
    return text;
}

}  // namespace

bool isTextFileName(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext == ".txt";
}

bool isTextFolder(const std::string& path) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) return false;
    for (fs::directory_iterator sub(path, ec), end; !ec && sub != end; sub.increment(ec)) {
        if (hidden(sub->path()) || !sub->is_directory(ec)) continue;
        std::error_code inner;
        for (fs::directory_iterator it(sub->path(), inner); !inner && it != end; it.increment(inner)) {
            if (hidden(it->path())) continue;
            if (isTextFileName(it->path().string())) return true;
            if (isImageFileName(it->path().string())) return false;
        }
    }
    return false;
}

Dataset loadTextFolder(const std::string& dir) {
    const std::vector<fs::path> classes = sortedEntries(dir, [](const fs::path& p) {
        std::error_code ec;
        return fs::is_directory(p, ec);
    });
    if (classes.empty())
        throw Error(dir + ": no class subfolders (a text folder holds one subfolder of .txt files per class)");
    Dataset d;
    d.source = dir;
    d.vocabulary = TextVocabulary{};
    for (std::size_t k = 0; k < classes.size(); ++k) {
        d.classNames.push_back(classes[k].filename().string());
        for (const fs::path& f : sortedEntries(classes[k], isTextFile)) {
            d.texts.push_back(checkedText(f));
            d.labels.push_back(int(k));
        }
    }
    if (d.texts.empty()) throw Error(dir + ": no .txt files in its class subfolders");
    d.task = classes.size() == 2 ? Task::Binary : Task::Classification;
    d.features.resize(Index(d.texts.size()), 0);
    d.sampleShape = Shape::flat(0);
    return d;
}

TextFiles loadTextFiles(const std::string& path) {
    std::error_code ec;
    TextFiles out;
    if (fs::is_directory(path, ec)) {
        for (const fs::path& f : sortedEntries(path, isTextFile)) out.paths.push_back(f.string());
        if (out.paths.empty())
            throw Error(path + ": no .txt files in the folder (a text model predicts on a .txt file, a folder of "
                               "them, a CSV text column or a folder with one subfolder of .txt files per class)");
    } else if (fs::is_regular_file(path, ec)) {
        out.paths.push_back(path);
    } else {
        throw Error(path + ": no such file or folder");
    }
    Dataset& d = out.data;
    d.source = path;
    d.vocabulary = TextVocabulary{};
    for (const std::string& f : out.paths) d.texts.push_back(checkedText(f));
    d.features.resize(Index(d.texts.size()), 0);
    d.sampleShape = Shape::flat(0);
    return out;
}

std::vector<std::string> tokenFeatureNames(int length) {
    std::vector<std::string> names;
    names.reserve(std::size_t(std::max(length, 0)));
    for (int i = 1; i <= length; ++i) names.push_back("token_" + std::to_string(i));
    return names;
}

void encodeTexts(Dataset& d, const TextVocabulary& vocabulary) {
    if (d.features.cols() > 0 || (d.texts.empty() && d.features.rows() > 0)) return;  // encoded already
    const int length = vocabulary.maxLength;
    d.features.resize(Index(d.texts.size()), length);
    for (std::size_t r = 0; r < d.texts.size(); ++r) {
        const std::vector<std::int32_t> ids = vocabulary.encode(d.texts[r], length);
        for (int i = 0; i < length; ++i) d.features(Index(r), i) = Scalar(ids[std::size_t(i)]);
    }
    d.sampleShape = Shape::steps(length, 1);
    d.featureNames = tokenFeatureNames(length);
    d.vocabulary = vocabulary;
    d.texts = {};
}

}  // namespace skynnet
