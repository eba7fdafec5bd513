#pragma once
// Text data (issue 26): the tokenizer and the vocabulary that turn a text into the fixed-length
// sequence of token ids a model reads.
//
// The tokenizer rule (version textTokenizerRule; a saved vocabulary records it, since a model
// only understands ids made by the rule it was fitted with):
// - The text is UTF-8 (invalid bytes are an error, see checkUtf8) and is lower-cased first: ASCII,
//   Latin-1, Latin Extended-A (İ becomes i), Greek and Cyrillic capitals; other characters stay.
// - Spaces separate tokens and are dropped: ASCII white space and the Unicode spaces (U+00A0,
//   U+2000-U+200B, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF).
// - A word is a run of letters: a-z, and every non-ASCII character that is not a space or in the
//   punctuation and symbol blocks listed in text_vocabulary.cpp (so accented letters, combining
//   accents and other scripts are letters; a script without spaces makes one word per run). An
//   apostrophe (' or U+2019) between two letters stays inside the word, written as '.
// - A number is a run of digits 0-9 with an optional decimal part (a '.' followed by digits).
// - Every other character (ASCII punctuation, the punctuation and symbol blocks, emoji) is a
//   punctuation token of its own.
// Example: "Don't stop: 3.5 stars!!" -> don't | stop | : | 3.5 | stars | ! | !
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "io/json.h"

namespace skynnet {

inline constexpr int textTokenizerRule = 1;
// Bounds a hostile or mistaken file cannot exceed.
inline constexpr int maxTextLength = 1 << 20;
inline constexpr int maxVocabularySize = 1 << 24;

// Throws Error "<where>: text is not UTF-8 (byte 0xff at column 7)" for the first byte that does not
// start a valid UTF-8 sequence (overlong forms, surrogates and code points beyond U+10FFFF are
// invalid); the column counts characters from 1. With EmptyText::refused, a text without any
// non-space character throws "<where>: text is empty". An empty where leaves out the "<where>: ".
enum class EmptyText { allowed, refused };
void checkUtf8(std::string_view text, std::string_view where, EmptyText empty = EmptyText::allowed);

// The tokens of a text by the rule above. Throws Error if the text is not UTF-8.
std::vector<std::string> tokenizeText(std::string_view text);

struct TextVocabulary {
    static constexpr std::int32_t paddingId = 0;  // fills encoded texts up to their length
    static constexpr std::int32_t unknownId = 1;  // a token the vocabulary does not hold
    static constexpr std::int32_t firstTokenId = 2;

    // tokens[i] has id firstTokenId + i, most frequent first.
    std::vector<std::string> tokens;
    // Tokens per encoded text that the model reads, chosen by the caller; saved with the tokens.
    int maxLength = 0;

    // Ids in use: padding, unknown and the tokens (an embedding's input size).
    int size() const { return firstTokenId + int(tokens.size()); }
    std::int32_t idOf(const std::string& token) const;  // unknownId if not held
    // The ids of the text's first maxLength tokens, PRE-padded: paddingId fills the front up to
    // maxLength, so the last id is always the text's (a recurrent layer's last step and
    // seqpool:last read real text; DESIGN26.md). Throws Error if the text is not UTF-8 or
    // maxLength is below 1.
    std::vector<std::int32_t> encode(std::string_view text, int maxLength) const;

    // Rebuilds the token -> id index after tokens changed (fitVocabulary and the reader call it).
    void index();
    // Same tokens and length (the index follows from the tokens).
    bool operator==(const TextVocabulary& o) const { return tokens == o.tokens && maxLength == o.maxLength; }

private:
    std::unordered_map<std::string, std::int32_t> ids_;
};

// The vocabulary of at most maxSize ids (padding and unknown included, so maxSize - 2 tokens):
// the most frequent tokens of the training texts, ties broken by first appearance, so the same
// texts always give the same ids. Throws Error if maxSize is below 3 or a text is not UTF-8.
TextVocabulary fitVocabulary(const std::vector<std::string>& trainingTexts, int maxSize);

// {"tokenizerRule": 1, "maxLength": 200, "tokens": ["the", ...]} (tokens from id 2). toJson throws
// Error if maxLength is unset (below 1); the reader throws Error naming the field at fault (an
// unknown rule, a token listed twice or one that the rule would not make).
Json toJson(const TextVocabulary& vocabulary);
TextVocabulary vocabularyFromJson(const JsonField& j);

}  // namespace skynnet
