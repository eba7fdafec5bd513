#include "project/data_reference.h"

#include <xxhash.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <system_error>
#include <vector>

#include "core/error.h"
#include "data/shape_text.h"
#include "io/atomic_file.h"
#include "io/json_fields.h"
#include "project/project_json.h"

namespace skynnet {
namespace fs = std::filesystem;
namespace {

constexpr const char* builtinPrefix = "builtin:";

bool isBuiltin(const std::string& path) { return path.rfind(builtinPrefix, 0) == 0; }

fs::path absoluteNormal(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    return (ec ? fs::path(path) : p).lexically_normal();
}

std::string hex64(std::uint64_t v) {
    static const char digits[] = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4) s[std::size_t(i)] = digits[v & 15];
    return s;
}

std::uint64_t hex64FromJson(const JsonField& j) {
    const std::string& s = j.asString();
    if (s.size() != 16) j.fail("must be 16 hexadecimal digits");
    std::uint64_t v = 0;
    for (char c : s) {
        const int d = c >= '0' && c <= '9' ? c - '0' : (c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1);
        if (d < 0) j.fail("must be 16 lowercase hexadecimal digits");
        v = v << 4 | std::uint64_t(d);
    }
    return v;
}

// A data file, or an image folder.
bool isFile(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) || fs::is_directory(p, ec);
}

using HashState = std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)>;

HashState newHash(const std::string& path) {
    HashState h(XXH64_createState(), XXH64_freeState);
    if (!h || XXH64_reset(h.get(), 0) != XXH_OK) throw Error(path + ": cannot hash (out of memory)");
    return h;
}

// Feeds the file's content to `h`; returns its size.
std::uint64_t hashContent(const std::string& path, XXH64_state_t* h, std::vector<unsigned char>& chunk) {
    InputFile in(path);
    std::uint64_t size = 0;
    while (const std::size_t n = in.read(chunk.data(), chunk.size())) {
        XXH64_update(h, chunk.data(), n);
        size += n;
    }
    return size;
}

FileFingerprint folderFingerprint(const std::string& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec)) files.push_back(it->path());
    if (ec) throw Error(dir + ": cannot list the folder (" + ec.message() + ")");
    std::sort(files.begin(), files.end());
    const HashState h = newHash(dir);
    std::vector<unsigned char> chunk(std::size_t(1) << 20);
    FileFingerprint f;
    for (const fs::path& file : files) {
        const std::string name = file.lexically_relative(dir).generic_string();
        XXH64_update(h.get(), name.c_str(), name.size() + 1);  // with its terminating zero
        const HashState content = newHash(file.string());
        const std::uint64_t size = hashContent(file.string(), content.get(), chunk);
        const std::uint64_t sums[2] = {size, XXH64_digest(content.get())};
        XXH64_update(h.get(), sums, sizeof sums);
        f.size += size;
    }
    f.hash = XXH64_digest(h.get());
    return f;
}

Json fileJson(const ProjectDataFile& f, const fs::path& projectDir) {
    if (isBuiltin(f.path)) return Json::object({{"path", f.path}});
    const fs::path abs = absoluteNormal(f.path);
    fs::path rel = abs.lexically_relative(projectDir);
    Json j = Json::object(
        {{"path", (rel.empty() ? abs : rel).generic_string()}, {"absolutePath", abs.generic_string()}});
    if (f.fingerprint)
        j["fingerprint"] = Json::object({{"size", f.fingerprint->size}, {"xxh64", hex64(f.fingerprint->hash)}});
    return j;
}

ProjectDataFile fileFromJson(const JsonField& j, const std::string& projectDir, bool locate) {
    ProjectDataFile f;
    const std::string saved = j.at("path").asString();
    if (isBuiltin(saved)) {
        f.path = saved;
        return f;
    }
    f.path = j.value("absolutePath", saved);
    if (const auto fp = j.find("fingerprint"); fp && !fp->isNull())
        f.fingerprint = FileFingerprint{std::uint64_t(fp->at("size").asInt64()), hex64FromJson(fp->at("xxh64"))};
    if (locate) locateDataFile(f, saved, projectDir);
    return f;
}

const std::pair<const char*, ProjectDataFile ProjectDataSource::*> dataFiles[] = {
    {"train", &ProjectDataSource::train},
    {"trainLabels", &ProjectDataSource::trainLabels},
    {"test", &ProjectDataSource::test},
    {"testLabels", &ProjectDataSource::testLabels},
};

// A sample shape read as "1xSxF" and flagged as a sequence: Shape::steps(S, F).
Shape sequenceShapeFromJson(const JsonField& flag, Shape shape) {
    if (shape.channels != 1) flag.fail("is for a sample shape of 1 x steps x features, not " + sampleShapeText(shape));
    return Shape::steps(shape.height, shape.width);
}

double fractionFromJson(const JsonField& j) {
    const double f = j.asDouble();
    if (!(f >= 0.0 && f < 1.0)) j.fail("must be at least 0 and below 1");
    return f;
}

}  // namespace

FileFingerprint fileFingerprint(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return folderFingerprint(path);
    const HashState h = newHash(path);
    std::vector<unsigned char> chunk(std::size_t(1) << 20);
    FileFingerprint f;
    f.size = hashContent(path, h.get(), chunk);
    f.hash = XXH64_digest(h.get());
    return f;
}

std::string dataFileStatusName(DataFileStatus s) {
    switch (s) {
    case DataFileStatus::Unchecked: return "unchecked";
    case DataFileStatus::Found: return "found";
    case DataFileStatus::Changed: return "changed";
    case DataFileStatus::Missing: return "missing";
    }
    return "unchecked";
}

PreparationSettings ProjectDataSource::preparation() const {
    PreparationSettings p;
    p.validationFraction = validationFraction;
    p.testFraction = testFraction;
    p.separateTestFile = !test.path.empty();
    p.seed = seed;
    p.scaling = scaling;
    p.text = text;
    return p;
}

namespace {

DataRequest requestOf(const ProjectDataFile& file, const ProjectDataFile& labels, const ProjectDataSource& s,
                      const DataRequestNames& names) {
    DataRequest r;
    r.option = names.file;
    r.labelsOption = names.labels;
    r.targetOption = names.target;
    r.path = file.path;
    r.labels = labels.path;
    r.target = s.targetColumn;
    r.task = s.task;
    r.image = s.image;
    r.sampleShape = s.sampleShape;
    r.imageOption = "project data image";
    r.sampleShapeOption = "project data sampleShape";
    r.textColumn = s.textColumn;
    r.textColumnOption = "project data textColumn";
    r.sequenceRows = s.sequenceRows;
    r.sequenceOption = "project data sequenceRows";
    return r;
}

}  // namespace

DataRequest ProjectDataSource::trainRequest(const DataRequestNames& names) const {
    return requestOf(train, trainLabels, *this, names);
}

DataRequest ProjectDataSource::testRequest(const DataRequestNames& names) const {
    return requestOf(test, testLabels, *this, names);
}

std::vector<std::string> ProjectDataSource::problems() const {
    std::vector<std::string> out;
    for (const auto& [key, member] : dataFiles) {
        const ProjectDataFile& f = this->*member;
        if (f.status == DataFileStatus::Changed || f.status == DataFileStatus::Missing)
            out.push_back(std::string(key) + " (" + f.path + "): " + dataFileStatusName(f.status));
    }
    return out;
}

DataFileStatus checkDataFile(const ProjectDataFile& file) {
    if (file.path.empty() || isBuiltin(file.path)) return DataFileStatus::Unchecked;
    if (!isFile(file.path)) return DataFileStatus::Missing;
    if (!file.fingerprint) return DataFileStatus::Unchecked;
    try {
        return fileFingerprint(file.path) == *file.fingerprint ? DataFileStatus::Found : DataFileStatus::Changed;
    } catch (const Error&) {
        return DataFileStatus::Missing;  // unreadable: as good as absent
    }
}

void locateDataFile(ProjectDataFile& file, const std::string& savedRelative, const std::string& projectDir) {
    if (file.path.empty() || isBuiltin(file.path)) {
        file.status = DataFileStatus::Unchecked;
        return;
    }
    std::vector<std::string> candidates;
    if (!savedRelative.empty()) {
        const fs::path rel(savedRelative);
        candidates.push_back((rel.is_absolute() ? rel : fs::path(projectDir) / rel).lexically_normal().string());
    }
    const std::string absolute = absoluteNormal(file.path).string();
    if (candidates.empty() || candidates.front() != absolute) candidates.push_back(absolute);
    file.path = absolute;  // where a missing file is reported
    file.status = DataFileStatus::Missing;
    bool changedSeen = false;
    for (const std::string& c : candidates) {
        ProjectDataFile probe = file;
        probe.path = c;
        const DataFileStatus s = checkDataFile(probe);
        if (s == DataFileStatus::Found || s == DataFileStatus::Unchecked) {
            file.path = c;
            file.status = s;
            return;
        }
        if (s == DataFileStatus::Changed && !changedSeen) {
            changedSeen = true;
            file.path = c;
            file.status = s;
        }
    }
    // Last, a file of the same name beside the project (data copied next to a project sent on its
    // own). Only its fingerprint can tell it is the same data, so it is taken only when one was
    // saved and matches; a namesake with other content is someone else's file, not "changed".
    const fs::path name = fs::path(absolute).filename();  // empty for a folder saved as "dir/"
    if (!file.fingerprint || name.empty()) return;
    const fs::path beside = (fs::path(projectDir) / name).lexically_normal();
    if (std::find(candidates.begin(), candidates.end(), beside.string()) != candidates.end()) return;
    ProjectDataFile probe = file;
    probe.path = beside.string();
    if (checkDataFile(probe) == DataFileStatus::Found) {
        file.path = probe.path;
        file.status = DataFileStatus::Found;
    }
}

Json toJson(const ProjectDataSource& d, const std::string& projectDir) {
    Json j = Json::object();
    for (const auto& [key, member] : dataFiles)
        if (!(d.*member).path.empty()) j[key] = fileJson(d.*member, fs::path(projectDir));
    j["targetColumn"] = d.targetColumn;
    j["task"] = d.task ? Json(taskName(*d.task)) : Json();
    // Written only when set, so the data of a project without images reads as before everywhere.
    if (d.image != ImageOptions{})
        j["image"] = Json::object({{"height", d.image.height},
                                   {"width", d.image.width},
                                   {"channels", d.image.channels},
                                   {"strict", d.image.strict}});
    if (d.sampleShape) j["sampleShape"] = sampleShapeText(*d.sampleShape);
    // "1xSxF" is also a sequence's text (Shape::steps(S, F)): the flag says which, only when set.
    if (d.sampleShape && d.sampleShape->sequence) j["sampleShapeSequence"] = true;
    // Text and sequence settings likewise only when set (issue 26).
    if (!d.textColumn.empty()) j["textColumn"] = d.textColumn;
    if (d.text != TextSettings{})
        j["text"] = Json::object({{"vocabularySize", d.text.vocabularySize}, {"maxLength", d.text.maxLength}});
    if (d.sequenceRows) j["sequenceRows"] = true;
    j["scaling"] = scalingName(d.scaling);
    j["validationFraction"] = d.validationFraction;
    j["testFraction"] = d.testFraction;
    j["seed"] = unsignedToJson(d.seed);
    return j;
}

ProjectDataSource dataSourceFromJson(const JsonField& j, const std::string& projectDir, bool locate) {
    ProjectDataSource d;
    for (const auto& [key, member] : dataFiles)
        if (const auto f = j.find(key); f && !f->isNull()) d.*member = fileFromJson(*f, projectDir, locate);
    d.targetColumn = j.at("targetColumn").asString();
    if (const auto t = j.find("task"); t && !t->isNull()) {
        try {
            d.task = parseTask(t->asString());
        } catch (const Error& e) {
            throw Error(t->where() + ": " + e.what());
        }
    }
    if (const auto image = j.find("image"); image && !image->isNull()) {
        d.image.height = nonNegativeInt(image->at("height"), 8192);
        d.image.width = nonNegativeInt(image->at("width"), 8192);
        d.image.channels = nonNegativeInt(image->at("channels"), 3);
        if (d.image.channels != 0 && d.image.channels != 1 && d.image.channels != 3)
            image->at("channels").fail("must be 0 (as the images), 1 or 3");
        d.image.strict = image->at("strict").asBool();
    }
    if (const auto shape = j.find("sampleShape"); shape && !shape->isNull()) {
        try {
            d.sampleShape = parseSampleShape(shape->asString());
        } catch (const Error& e) {
            throw Error(shape->where() + ": " + e.what());
        }
        // Absent in files written before sequence layouts were saved: an image's layout.
        if (const auto sequence = j.find("sampleShapeSequence"); sequence && sequence->asBool())
            d.sampleShape = sequenceShapeFromJson(*sequence, *d.sampleShape);
    }
    d.textColumn = j.value("textColumn", "");
    if (const auto text = j.find("text"); text && !text->isNull()) {
        d.text.vocabularySize = positiveInt(text->at("vocabularySize"), maxVocabularySize);
        d.text.maxLength = positiveInt(text->at("maxLength"), maxTextLength);
    }
    d.sequenceRows = j.value("sequenceRows", false);
    try {
        d.scaling = parseScaling(j.at("scaling").asString());
    } catch (const Error& e) {
        throw Error(j.at("scaling").where() + ": " + e.what());
    }
    d.validationFraction = fractionFromJson(j.at("validationFraction"));
    d.testFraction = fractionFromJson(j.at("testFraction"));
    d.seed = unsignedFromJson(j.at("seed"));
    return d;
}

}  // namespace skynnet
