#include "data/text_vocabulary.h"

#include <algorithm>
#include <cstdio>
#include <unordered_set>

#include "core/error.h"
#include "io/json_fields.h"

namespace skynnet {
namespace {

// One decoded character: its code point and its byte length; length 0 marks an invalid sequence.
struct Decoded {
    char32_t c = 0;
    std::size_t length = 0;
};

bool isContinuation(unsigned char b) { return (b & 0xC0) == 0x80; }

// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing beyond U+10FFFF.
Decoded decode(std::string_view s, std::size_t at) {
    const auto byte = [&](std::size_t i) { return at + i < s.size() ? (unsigned char)s[at + i] : 0u; };
    const unsigned char b0 = byte(0);
    if (b0 < 0x80) return {b0, 1};
    std::size_t length = 0;
    char32_t c = 0, min = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) length = 2, c = b0 & 0x1F, min = 0x80;
    else if (b0 >= 0xE0 && b0 <= 0xEF) length = 3, c = b0 & 0x0F, min = 0x800;
    else if (b0 >= 0xF0 && b0 <= 0xF4) length = 4, c = b0 & 0x07, min = 0x10000;
    else return {};
    for (std::size_t i = 1; i < length; ++i) {
        if (at + i >= s.size() || !isContinuation(byte(i))) return {};
        c = (c << 6) | (byte(i) & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return {};
    return {c, length};
}

void append(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
}

bool inRange(char32_t c, char32_t first, char32_t last) { return c >= first && c <= last; }

bool isSpace(char32_t c) {
    return c == ' ' || inRange(c, '\t', '\r') || c == 0xA0 || inRange(c, 0x2000, 0x200B) || c == 0x2028 ||
           c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

// The non-ASCII punctuation and symbol blocks: Latin-1 signs (but the letters ª µ º), × and ÷,
// general punctuation, currency, letterlike and number forms, arrows, mathematical and technical
// symbols, shapes, dingbats, supplemental and CJK punctuation, full-width ASCII punctuation, emoji.
bool isNonAsciiPunctuation(char32_t c) {
    if (inRange(c, 0xA1, 0xBF)) return c != 0xAA && c != 0xB5 && c != 0xBA;
    return c == 0xD7 || c == 0xF7 || inRange(c, 0x2010, 0x205E) || inRange(c, 0x20A0, 0x2BFF) ||
           inRange(c, 0x2E00, 0x2E7F) || inRange(c, 0x3001, 0x303F) || inRange(c, 0xFF01, 0xFF0F) ||
           inRange(c, 0xFF1A, 0xFF20) || inRange(c, 0xFF3B, 0xFF40) || inRange(c, 0xFF5B, 0xFF65) ||
           inRange(c, 0x1F000, 0x1FAFF);
}

bool isDigit(char32_t c) { return c >= '0' && c <= '9'; }

bool isLetter(char32_t c) {
    if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    return !isSpace(c) && !isNonAsciiPunctuation(c);
}

bool isApostrophe(char32_t c) { return c == '\'' || c == 0x2019; }

char32_t lowerCase(char32_t c) {
    if (inRange(c, 'A', 'Z')) return c + 32;
    if (inRange(c, 0xC0, 0xDE) && c != 0xD7) return c + 32;  // À-Þ
    if (c == 0x178) return 0xFF;                             // Ÿ
    if (c == 0x130) return 'i';                              // İ (dotted capital I)
    // Latin Extended-A: capital and small alternate, the capital first (even) up to U+0137, then
    // odd from U+0139 to U+0148, even again to U+0177, odd from U+0179.
    const bool evenCapitals = inRange(c, 0x100, 0x137) || inRange(c, 0x14A, 0x177);
    const bool oddCapitals = inRange(c, 0x139, 0x148) || inRange(c, 0x179, 0x17E);
    if ((evenCapitals && c % 2 == 0) || (oddCapitals && c % 2 == 1)) return c + 1;
    if (inRange(c, 0x391, 0x3AB) && c != 0x3A2) return c + 32;  // Greek Α-Ϋ
    if (inRange(c, 0x410, 0x42F)) return c + 32;                // Cyrillic А-Я
    if (inRange(c, 0x400, 0x40F)) return c + 80;                // Cyrillic Ѐ-Џ
    return c;
}

std::string hexByte(unsigned char b) {
    char text[8];
    std::snprintf(text, sizeof text, "0x%02x", b);
    return text;
}

// The text's characters, lower-cased; throws Error naming the first invalid byte.
std::u32string lowerCaseCharacters(std::string_view text, std::string_view where) {
    std::u32string out;
    out.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
        const Decoded d = decode(text, at);
        if (d.length == 0) {
            const std::string prefix = where.empty() ? std::string() : std::string(where) + ": ";
            throw Error(prefix + "text is not UTF-8 (byte " + hexByte((unsigned char)text[at]) + " at column " +
                        std::to_string(out.size() + 1) + ")");
        }
        out += lowerCase(d.c);
        at += d.length;
    }
    return out;
}

}  // namespace

void checkUtf8(std::string_view text, std::string_view where, EmptyText empty) {
    const std::u32string characters = lowerCaseCharacters(text, where);
    if (empty == EmptyText::refused && std::all_of(characters.begin(), characters.end(), isSpace))
        throw Error((where.empty() ? std::string() : std::string(where) + ": ") + "text is empty");
}

std::vector<std::string> tokenizeText(std::string_view text) {
    const std::u32string s = lowerCaseCharacters(text, "");
    std::vector<std::string> tokens;
    for (std::size_t i = 0; i < s.size();) {
        const char32_t c = s[i];
        if (isSpace(c)) {
            ++i;
            continue;
        }
        std::string token;
        if (isLetter(c)) {
            while (i < s.size()) {
                if (isLetter(s[i])) {
                    append(token, s[i++]);
                } else if (isApostrophe(s[i]) && i + 1 < s.size() && isLetter(s[i + 1])) {
                    token += '\'';  // only reached after a letter, so it sits between two letters
                    ++i;
                } else {
                    break;
                }
            }
        } else if (isDigit(c)) {
            while (i < s.size() && isDigit(s[i])) token += char(s[i++]);
            if (i + 1 < s.size() && s[i] == '.' && isDigit(s[i + 1])) {
                token += '.';
                ++i;
                while (i < s.size() && isDigit(s[i])) token += char(s[i++]);
            }
        } else {
            append(token, s[i++]);
        }
        tokens.push_back(std::move(token));
    }
    return tokens;
}

void TextVocabulary::index() {
    ids_.clear();
    ids_.reserve(tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i) ids_.emplace(tokens[i], firstTokenId + std::int32_t(i));
}

std::int32_t TextVocabulary::idOf(const std::string& token) const {
    const auto it = ids_.find(token);
    return it == ids_.end() ? unknownId : it->second;
}

std::vector<std::int32_t> TextVocabulary::encode(std::string_view text, int length) const {
    if (length < 1) throw Error("the text length must be at least 1, not " + std::to_string(length));
    std::vector<std::string> words = tokenizeText(text);
    std::vector<std::int32_t> ids(std::size_t(length), paddingId);
    const std::size_t used = std::min(words.size(), ids.size());
    const std::size_t padding = ids.size() - used;  // in front, so the last step is real text
    for (std::size_t i = 0; i < used; ++i) ids[padding + i] = idOf(words[i]);
    return ids;
}

TextVocabulary fitVocabulary(const std::vector<std::string>& trainingTexts, int maxSize) {
    if (maxSize < 3)
        throw Error("the vocabulary size must be at least 3 (padding, unknown and one token), not " +
                    std::to_string(maxSize));
    // Each token's index in `order`, and per token (in order of first appearance) its count.
    std::unordered_map<std::string, std::size_t> seenAt;
    std::vector<std::pair<const std::string*, std::int64_t>> order;
    for (const std::string& text : trainingTexts) {
        for (std::string& token : tokenizeText(text)) {
            const auto [it, isNew] = seenAt.try_emplace(std::move(token), order.size());
            if (isNew) order.emplace_back(&it->first, 0);  // node-based map: the key's address is stable
            ++order[it->second].second;
        }
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        return a.second > b.second;  // stable: ties keep their order of first appearance
    });
    TextVocabulary v;
    const std::size_t kept = std::min(order.size(), std::size_t(maxSize - TextVocabulary::firstTokenId));
    v.tokens.reserve(kept);
    for (std::size_t i = 0; i < kept; ++i) v.tokens.push_back(*order[i].first);
    v.index();
    return v;
}

Json toJson(const TextVocabulary& vocabulary) {
    if (vocabulary.maxLength < 1)
        throw Error("the text length (maxLength) must be set before the vocabulary is saved, not " +
                    std::to_string(vocabulary.maxLength));
    return Json::object(
        {{"tokenizerRule", textTokenizerRule}, {"maxLength", vocabulary.maxLength}, {"tokens", vocabulary.tokens}});
}

TextVocabulary vocabularyFromJson(const JsonField& j) {
    const JsonField rule = j.at("tokenizerRule");
    if (rule.get<int>() != textTokenizerRule)
        rule.fail("is " + std::to_string(rule.get<int>()) + ", but this version of Skynnet knows rule " +
                  std::to_string(textTokenizerRule) + " only");
    TextVocabulary v;
    v.maxLength = positiveInt(j.at("maxLength"), maxTextLength);
    const JsonField tokens = j.at("tokens");
    if (tokens.size() > std::size_t(maxVocabularySize))
        tokens.fail("has more than " + std::to_string(maxVocabularySize) + " tokens");
    std::unordered_set<std::string> seen;
    for (const JsonField& item : tokens.asArray()) {
        const std::string& token = item.asString();
        std::vector<std::string> made;
        try {
            made = tokenizeText(token);
        } catch (const Error& e) {
            item.fail(std::string("is not UTF-8: ") + e.what());
        }
        if (made.size() != 1 || made[0] != token)
            item.fail("(" + dumpJson(item.json()) + ") is not a token that tokenizer rule " +
                      std::to_string(textTokenizerRule) + " makes");
        if (!seen.insert(token).second) item.fail("(" + dumpJson(item.json()) + ") is listed twice");
        v.tokens.push_back(token);
    }
    v.index();
    return v;
}

}  // namespace skynnet
