// The JSON parser: text to Json, with errors that give the source, line and column.
#include <charconv>
#include <cmath>
#include <limits>
#include <memory>
#include <unordered_set>

#include "core/error.h"
#include "io/json.h"
#include "io/utf8.h"

namespace skynnet {
class JsonParser {
public:
    JsonParser(std::string_view text, std::string_view sourceName)
        : s_(text), source_(std::make_shared<const std::string>(sourceName)) {}

    Json document() {
        if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a byte-order mark from some editors
        Json root = value(std::string());
        skipSpace();
        if (pos_ < s_.size()) error(pos_, "unexpected content after the JSON value");
        return root;
    }

private:
    [[noreturn]] void error(std::size_t at, const std::string& problem) const {
        // Line and column are only worked out on failure; columns count characters, not bytes.
        int line = 1, column = 1;
        for (std::size_t i = 0; i < at && i < s_.size(); ++i) {
            const unsigned char c = static_cast<unsigned char>(s_[i]);
            if (c == '\n') {
                ++line;
                column = 1;
            } else if ((c & 0xC0) != 0x80) {
                ++column;
            }
        }
        throw Error(*source_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + problem);
    }

    void skipSpace() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
            ++pos_;
    }

    bool consume(char c) {
        skipSpace();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }

    Json value(std::string path) {
        skipSpace();
        if (pos_ >= s_.size()) error(pos_, "unexpected end of input, expected a value");
        Json j;
        const char c = s_[pos_];
        if (c == '{') j = object(path);
        else if (c == '[') j = array(path);
        else if (c == '"') j = Json(string());
        else if (c == '-' || (c >= '0' && c <= '9')) j = number();
        else if (literal("true")) j = Json(true);
        else if (literal("false")) j = Json(false);
        else if (literal("null")) j = Json();
        else error(pos_, "expected a value");
        j.setOrigin(source_, std::move(path));
        return j;
    }

    bool literal(std::string_view word) {
        if (s_.substr(pos_, word.size()) != word) return false;
        pos_ += word.size();
        return true;
    }

    void enter() {
        if (++depth_ > Json::maxDepth)
            error(pos_, "nested deeper than " + std::to_string(Json::maxDepth) + " levels");
    }

    Json array(const std::string& path) {
        enter();
        ++pos_;
        Json::Array items;
        if (!consume(']')) {
            do {
                items.push_back(value(path + "[" + std::to_string(items.size()) + "]"));
            } while (consume(','));
            if (!consume(']')) error(pos_, "expected ',' or ']'");
        }
        --depth_;
        return Json(std::move(items));
    }

    Json object(const std::string& path) {
        enter();
        ++pos_;
        Json j = Json::object();
        auto& members = std::get<Json::Object>(j.value_);
        std::unordered_set<std::string> seen;
        if (!consume('}')) {
            do {
                skipSpace();
                const std::size_t keyAt = pos_;
                if (pos_ >= s_.size() || s_[pos_] != '"') error(pos_, "expected a member name in double quotes");
                std::string key = string();
                // Linear search suits the small objects of headers and settings; a set takes over
                // for big ones so a hostile file cannot make this quadratic.
                bool duplicate = false;
                if (members.size() < 32) {
                    for (const auto& m : members) duplicate = duplicate || m.first == key;
                } else {
                    if (seen.empty())
                        for (const auto& m : members) seen.insert(m.first);
                    duplicate = !seen.insert(key).second;
                }
                if (duplicate) error(keyAt, "duplicate key '" + key + "'");
                if (!consume(':')) error(pos_, "expected ':'");
                Json v = value(path.empty() ? key : path + "." + key);
                members.emplace_back(std::move(key), std::move(v));
            } while (consume(','));
            if (!consume('}')) error(pos_, "expected ',' or '}'");
        }
        --depth_;
        return j;
    }

    unsigned hex4(std::size_t at) {
        if (at + 4 > s_.size()) error(at, "invalid \\u escape");
        unsigned v = 0;
        for (std::size_t i = at; i < at + 4; ++i) {
            const char c = s_[i];
            v <<= 4;
            if (c >= '0' && c <= '9') v |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f') v |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') v |= unsigned(c - 'A' + 10);
            else error(at, "invalid \\u escape");
        }
        return v;
    }

    static void appendUtf8(std::string& out, unsigned cp) {
        if (cp < 0x80) {
            out += char(cp);
        } else if (cp < 0x800) {
            out += char(0xC0 | (cp >> 6));
            out += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += char(0xE0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        } else {
            out += char(0xF0 | (cp >> 18));
            out += char(0x80 | ((cp >> 12) & 0x3F));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        }
    }

    std::string string() {
        const std::size_t start = pos_++;
        std::string out;
        while (true) {
            if (pos_ >= s_.size()) error(start, "unterminated string");
            const unsigned char c = static_cast<unsigned char>(s_[pos_]);
            if (c == '"') {
                ++pos_;
                return out;
            }
            if (c < 0x20) error(pos_, "control character in a string (write it as an escape such as \\n)");
            if (c >= 0x80) {
                const std::size_t n = utf8SequenceLength(s_, pos_);
                if (n == 0) error(pos_, "invalid UTF-8 in a string");
                out.append(s_.substr(pos_, n));
                pos_ += n;
                continue;
            }
            if (c != '\\') {
                out += char(c);
                ++pos_;
                continue;
            }
            const std::size_t escAt = pos_;
            if (++pos_ >= s_.size()) error(start, "unterminated string");
            switch (s_[pos_++]) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                unsigned cp = hex4(pos_);
                pos_ += 4;
                if (cp >= 0xDC00 && cp <= 0xDFFF) error(escAt, "unpaired surrogate in \\u escape");
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    // Characters beyond the BMP arrive as a UTF-16 pair: \uD83D\uDE00.
                    if (s_.substr(pos_, 2) != "\\u") error(escAt, "unpaired surrogate in \\u escape");
                    const unsigned low = hex4(pos_ + 2);
                    if (low < 0xDC00 || low > 0xDFFF) error(escAt, "unpaired surrogate in \\u escape");
                    pos_ += 6;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(out, cp);
                break;
            }
            default: error(escAt, "invalid escape '\\" + std::string(1, s_[pos_ - 1]) + "'");
            }
        }
    }

    Json number() {
        const std::size_t start = pos_;
        const auto digit = [&] { return pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9'; };
        const auto digits = [&] {
            if (!digit()) error(start, "invalid number");
            while (digit()) ++pos_;
        };
        if (s_[pos_] == '-') ++pos_;
        if (pos_ < s_.size() && s_[pos_] == '0') ++pos_;  // no leading zeros in JSON
        else digits();
        bool integral = true;
        if (pos_ < s_.size() && s_[pos_] == '.') {
            ++pos_;
            digits();
            integral = false;
        }
        bool negativeExponent = false;
        if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
            ++pos_;
            if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) negativeExponent = s_[pos_++] == '-';
            digits();
            integral = false;
        }
        const char* b = s_.data() + start;
        const char* e = s_.data() + pos_;
        const bool negativeZero = integral && std::string_view(b, e) == "-0";
        if (integral && !negativeZero) {
            std::int64_t n = 0;
            const auto r = std::from_chars(b, e, n);
            if (r.ec == std::errc() && r.ptr == e) return Json(n);
            // Too large for 64 bits: keep it as a double like any other JSON reader would.
        }
        double d = 0;
        const auto r = std::from_chars(b, e, d);
        if (r.ec == std::errc::result_out_of_range && negativeExponent) return Json(*b == '-' ? -0.0 : 0.0);
        if (r.ec != std::errc() || r.ptr != e) error(start, "number out of range");
        return Json(d);
    }

    std::string_view s_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    std::shared_ptr<const std::string> source_;
};

Json Json::parse(std::string_view text, std::string_view sourceName) {
    return JsonParser(text, sourceName).document();
}

}  // namespace skynnet
