#include "export/cpp_text_tokenizer.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "core/error.h"
#include "export/cpp_literals.h"

namespace skynnet {
namespace {

// Rule 1, written out from data/text_vocabulary.cpp (the test compares the two on many texts).
constexpr const char* tokenizerRule =
    R"(// Strict UTF-8 (no overlong forms, surrogates or code points beyond U+10FFFF): the character at
// s[at] into c; returns its length in bytes, 0 for an invalid sequence.
inline std::size_t decodeUtf8(std::string_view s, std::size_t at, char32_t& c) {
    const auto byte = [&](std::size_t i) { return at + i < s.size() ? static_cast<unsigned char>(s[at + i]) : 0u; };
    const unsigned b0 = byte(0);
    if (b0 < 0x80) {
        c = b0;
        return 1;
    }
    std::size_t length = 0;
    char32_t min = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) length = 2, c = b0 & 0x1F, min = 0x80;
    else if (b0 >= 0xE0 && b0 <= 0xEF) length = 3, c = b0 & 0x0F, min = 0x800;
    else if (b0 >= 0xF0 && b0 <= 0xF4) length = 4, c = b0 & 0x07, min = 0x10000;
    else return 0;
    for (std::size_t i = 1; i < length; ++i) {
        if (at + i >= s.size() || (byte(i) & 0xC0) != 0x80) return 0;
        c = (c << 6) | (byte(i) & 0x3F);
    }
    return c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF) ? 0 : length;
}

inline void appendUtf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

inline bool inRange(char32_t c, char32_t first, char32_t last) { return c >= first && c <= last; }

// ASCII white space and the Unicode spaces.
inline bool isSpace(char32_t c) {
    return c == ' ' || inRange(c, '\t', '\r') || c == 0xA0 || inRange(c, 0x2000, 0x200B) || c == 0x2028 ||
           c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

// The non-ASCII punctuation and symbol blocks (Latin-1 signs but the letters ª µ º, × and ÷,
// general punctuation to dingbats, CJK and full-width punctuation, emoji).
inline bool isNonAsciiPunctuation(char32_t c) {
    if (inRange(c, 0xA1, 0xBF)) return c != 0xAA && c != 0xB5 && c != 0xBA;
    return c == 0xD7 || c == 0xF7 || inRange(c, 0x2010, 0x205E) || inRange(c, 0x20A0, 0x2BFF) ||
           inRange(c, 0x2E00, 0x2E7F) || inRange(c, 0x3001, 0x303F) || inRange(c, 0xFF01, 0xFF0F) ||
           inRange(c, 0xFF1A, 0xFF20) || inRange(c, 0xFF3B, 0xFF40) || inRange(c, 0xFF5B, 0xFF65) ||
           inRange(c, 0x1F000, 0x1FAFF);
}

inline bool isDigit(char32_t c) { return c >= '0' && c <= '9'; }

// a-z (after lower-casing) and every non-ASCII character that is neither a space nor punctuation.
inline bool isLetter(char32_t c) {
    if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    return !isSpace(c) && !isNonAsciiPunctuation(c);
}

// ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic capitals; other characters stay.
inline char32_t lowerCase(char32_t c) {
    if (inRange(c, 'A', 'Z')) return c + 32;
    if (inRange(c, 0xC0, 0xDE) && c != 0xD7) return c + 32;
    if (c == 0x178) return 0xFF;
    if (c == 0x130) return 'i';
    const bool evenCapitals = inRange(c, 0x100, 0x137) || inRange(c, 0x14A, 0x177);
    const bool oddCapitals = inRange(c, 0x139, 0x148) || inRange(c, 0x179, 0x17E);
    if ((evenCapitals && c % 2 == 0) || (oddCapitals && c % 2 == 1)) return c + 1;
    if (inRange(c, 0x391, 0x3AB) && c != 0x3A2) return c + 32;
    if (inRange(c, 0x410, 0x42F)) return c + 32;
    if (inRange(c, 0x400, 0x40F)) return c + 80;
    return c;
}

// The text's tokens: words (letters, with ' or U+2019 between two letters kept as '), numbers
// (digits with an optional decimal part) and single punctuation characters. False if not UTF-8.
inline bool tokenize(std::string_view text, std::vector<std::string>& tokens) {
    std::u32string s;
    for (std::size_t at = 0; at < text.size();) {
        char32_t c = 0;
        const std::size_t length = decodeUtf8(text, at, c);
        if (length == 0) return false;
        s += lowerCase(c);
        at += length;
    }
    tokens.clear();
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
                    appendUtf8(token, s[i++]);
                } else if ((s[i] == '\'' || s[i] == 0x2019) && i + 1 < s.size() && isLetter(s[i + 1])) {
                    token += '\'';
                    ++i;
                } else {
                    break;
                }
            }
        } else if (isDigit(c)) {
            while (i < s.size() && isDigit(s[i])) token += static_cast<char>(s[i++]);
            if (i + 1 < s.size() && s[i] == '.' && isDigit(s[i + 1])) {
                token += '.';
                ++i;
                while (i < s.size() && isDigit(s[i])) token += static_cast<char>(s[i++]);
            }
        } else {
            appendUtf8(token, s[i++]);
        }
        tokens.push_back(std::move(token));
    }
    return true;
}

// A token's id: its entry in kVocabulary (sorted by bytes), or the unknown id.
inline int tokenId(std::string_view token) {
    const VocabularyEntry* end = kVocabulary + kVocabularyEntries;
    const VocabularyEntry* e = std::lower_bound(kVocabulary, end, token, [](const VocabularyEntry& v, std::string_view t) {
        return std::string_view(v.token, v.length) < t;
    });
    return e != end && std::string_view(e->token, e->length) == token ? e->id : kUnknownId;
}

}  // namespace detail

// The text's first kTextLength token ids, PRE-padded with 0 (padding) so that the last id is the
// text's; 1 for a token the vocabulary does not hold. False (ids untouched) if the text is not UTF-8.
inline bool encodeText(std::string_view text, float* ids) {
    std::vector<std::string> tokens;
    if (!detail::tokenize(text, tokens)) return false;
    const std::size_t used = std::min(tokens.size(), static_cast<std::size_t>(kTextLength));
    const std::size_t padding = static_cast<std::size_t>(kTextLength) - used;
    for (std::size_t i = 0; i < padding; ++i) ids[i] = 0.0f;
    for (std::size_t i = 0; i < used; ++i) ids[padding + i] = static_cast<float>(detail::tokenId(tokens[i]));
    return true;
}
)";

}  // namespace

void writeCppTokenizer(std::ostream& out, const TextVocabulary& v) {
    if (v.maxLength < 1)
        throw Error("the text length (maxLength) must be set to write the tokenizer, not " +
                    std::to_string(v.maxLength));
    // Sorted by bytes (std::string's order is char_traits', unsigned like std::string_view's) for
    // the binary search.
    std::vector<std::size_t> order(v.tokens.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v.tokens[a] < v.tokens[b]; });
    out << "\n// ---- Text: tokenizer rule " << textTokenizerRule << " (Skynnet's data/text_vocabulary.h) and the "
        << "vocabulary of " << v.tokens.size() << " tokens (ids " << TextVocabulary::firstTokenId << " up; "
        << TextVocabulary::paddingId << " is padding, " << TextVocabulary::unknownId << " an unknown token).\n"
        << "inline constexpr int kTextLength = " << v.maxLength << ";\n\nnamespace detail {\n\n"
        << "inline constexpr int kUnknownId = " << TextVocabulary::unknownId << ";\n"
        << "struct VocabularyEntry {\n    const char* token;\n    std::size_t length;  // bytes\n    int id;\n};\n"
        << "inline constexpr std::size_t kVocabularyEntries = " << v.tokens.size() << ";\n"
        << "inline constexpr VocabularyEntry kVocabulary[" << std::max<std::size_t>(v.tokens.size(), 1)
        << "] = {";  // never an empty array: an empty vocabulary holds one unused entry
    if (v.tokens.empty()) out << "{\"\", 0, " << TextVocabulary::unknownId << "}";
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::string& token = v.tokens[order[k]];
        out << (k % 4 == 0 ? "\n    " : " ") << "{" << cppStringLiteral(token) << ", " << token.size() << ", "
            << TextVocabulary::firstTokenId + std::int64_t(order[k]) << "}" << (k + 1 < order.size() ? "," : "");
    }
    out << "};\n\n" << tokenizerRule;
}

std::string cppTokenizerHeaderText(const TextVocabulary& vocabulary, const std::string& namespaceName) {
    checkCppNamespace(namespaceName);
    std::ostringstream out;
    out << "// Generated by Skynnet: the text tokenizer of a model. Self-contained C++17, standard library only.\n"
        << "#pragma once\n#include <algorithm>\n#include <cstddef>\n#include <string>\n#include <string_view>\n"
        << "#include <vector>\n\nnamespace " << namespaceName << " {\n";
    writeCppTokenizer(out, vocabulary);
    out << "\n}  // namespace " << namespaceName << "\n";
    return out.str();
}

}  // namespace skynnet
