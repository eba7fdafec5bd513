// Strict parsing on top of nlohmann's parser, with errors that give the source, line and column.
#include <iterator>
#include <set>

#include "core/error.h"
#include "io/json.h"

namespace skynnet {
namespace {

// The text as nlohmann's parser reads it, one character at a time; it remembers how far the parser
// has read, so errors raised from the parser callback (duplicate keys, depth) can give a position.
struct TrackedText {
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    const char* at;
    const char** furthest;

    reference operator*() const { return *at; }
    TrackedText& operator++() {
        *furthest = ++at;
        return *this;
    }
    TrackedText operator++(int) {
        TrackedText before = *this;
        ++*this;
        return before;
    }
    bool operator==(const TrackedText& other) const { return at == other.at; }
};

// The containers open at the parser's position, so duplicate keys can be found and named.
struct OpenContainer {
    bool object;
    std::string path;
    std::string key;       // objects: the member being read
    std::size_t next = 0;  // arrays: the index of the next element
    std::set<std::string> keys;
};

class StrictParser {
public:
    StrictParser(std::string_view text, std::string_view sourceName) : text_(text), source_(sourceName) {}

    Json document() {
        const char* begin = text_.data();
        const char* end = begin + text_.size();
        read_ = begin;
        try {
            return Json::parse(TrackedText{begin, &read_}, TrackedText{end, &read_},
                               [this](int depth, nlohmann::json::parse_event_t event, Json& parsed) {
                                   return onEvent(depth, event, parsed);
                               });
        } catch (const Json::parse_error& e) {
            // nlohmann's byte is 1-based: the character it stopped at.
            throw error(e.byte > 0 ? std::size_t(e.byte - 1) : 0, problemOf(e.what()));
        } catch (const Json::out_of_range& e) {
            // A number beyond double's range, read up to the character after it.
            throw error(readSoFar() > 0 ? readSoFar() - 1 : 0, problemOf(e.what()));
        }
    }

private:
    // nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1,
    // column 2: " prefix, which error() replaces: "syntax error while parsing value - ...".
    static std::string problemOf(std::string_view what) {
        if (const std::size_t id = what.find("] "); what.starts_with("[json.exception.") && id != what.npos)
            what.remove_prefix(id + 2);
        if (const std::size_t column = what.find(", column "); what.starts_with("parse error") && column != what.npos)
            if (const std::size_t colon = what.find(": ", column); colon != what.npos) what.remove_prefix(colon + 2);
        return shortenLastRead(std::string(what));
    }

    // "last read: '<token>'" quotes the whole token, which may be a string of megabytes; its end
    // (where the problem is) is enough.
    static std::string shortenLastRead(std::string problem) {
        constexpr std::size_t keep = 40;
        const std::size_t open = problem.find("last read: '");
        if (open == std::string::npos) return problem;
        const std::size_t begin = open + 12;
        std::size_t end = problem.rfind("'; expected ");
        if (end == std::string::npos || end < begin) end = problem.size() - 1;
        if (end < begin || end - begin <= keep) return problem;
        std::size_t cut = end - keep;
        while (cut < end && (static_cast<unsigned char>(problem[cut]) & 0xC0) == 0x80) ++cut;  // whole characters
        return problem.substr(0, begin) + "..." + problem.substr(cut);
    }

    Error error(std::size_t at, const std::string& problem) const {
        // Columns count characters, not bytes.
        int line = 1, column = 1;
        for (std::size_t i = 0; i < at && i < text_.size(); ++i) {
            const unsigned char c = static_cast<unsigned char>(text_[i]);
            if (c == '\n') {
                ++line;
                column = 1;
            } else if ((c & 0xC0) != 0x80) {
                ++column;
            }
        }
        return Error(source_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + problem);
    }

    std::size_t readSoFar() const { return std::size_t(read_ - text_.data()); }

    // The path of the value that starts now, counted as an element of its container.
    std::string nextPath() {
        if (open_.empty()) return std::string();
        OpenContainer& c = open_.back();
        if (c.object) return c.path.empty() ? c.key : c.path + "." + c.key;
        return c.path + "[" + std::to_string(c.next++) + "]";
    }

    // The number token the parser has just read; it reads one character past it unless at the end.
    std::string_view numberJustRead() const {
        std::size_t end = readSoFar();
        const auto inNumber = [&](std::size_t i) { return text_[i] == '-' || (text_[i] >= '0' && text_[i] <= '9'); };
        if (end > 0 && !inNumber(end - 1)) --end;
        std::size_t start = end;
        while (start > 0 && inNumber(start - 1)) --start;
        return text_.substr(start, end - start);
    }

    // Where the key just read starts: its opening quote (keys hold no unescaped quote).
    std::size_t keyStart() const {
        std::size_t i = readSoFar();
        if (i > 0) --i;  // the closing quote
        while (i > 0) {
            --i;
            std::size_t backslashes = 0;
            while (backslashes < i && text_[i - 1 - backslashes] == '\\') ++backslashes;
            if (text_[i] == '"' && backslashes % 2 == 0) break;
        }
        return i;
    }

    bool onEvent(int depth, nlohmann::json::parse_event_t event, Json& parsed) {
        using Event = nlohmann::json::parse_event_t;
        switch (event) {
        case Event::object_start:
        case Event::array_start:
            if (depth >= jsonMaxDepth)
                throw error(readSoFar() - 1, "nested deeper than " + std::to_string(jsonMaxDepth) + " levels");
            open_.push_back({event == Event::object_start, nextPath(), {}, 0, {}});
            break;
        case Event::object_end:
        case Event::array_end: open_.pop_back(); break;
        case Event::key: {
            OpenContainer& c = open_.back();
            c.key = parsed.get<std::string>();
            if (!c.keys.insert(c.key).second)
                throw error(keyStart(), "duplicate key '" + (c.path.empty() ? c.key : c.path + "." + c.key) + "'");
            break;
        }
        case Event::value:
            if (parsed.is_number_integer() && parsed == 0 && numberJustRead() == "-0") parsed = -0.0;
            nextPath();
            break;
        }
        return true;
    }

    std::string_view text_;
    std::string source_;
    const char* read_ = nullptr;
    std::vector<OpenContainer> open_;
};

}  // namespace

Json parseJson(std::string_view text, std::string_view sourceName) { return StrictParser(text, sourceName).document(); }

std::string dumpJson(const Json& j, int indent) { return j.dump(indent, ' ', false, Json::error_handler_t::replace); }

}  // namespace skynnet
