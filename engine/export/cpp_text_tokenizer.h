#pragma once
// The text part of the C++ header export (issue 26): tokenizer rule 1 (data/text_vocabulary.h) and
// a text model's vocabulary as standard C++17, so that a client can encode a string the way
// Skynnet does and predict on it. Generated API, in the namespace it is written into:
//   constexpr int kTextLength;                                   // token ids per text (L)
//   bool encodeText(std::string_view text, float* ids);          // ids[kTextLength]
// encodeText lower-cases and tokenises the UTF-8 text, looks its first kTextLength tokens up (1
// for a token the vocabulary does not hold) and PRE-pads with id 0, so that the last id is the
// text's (DESIGN26.md); ids are floats, exact below 2^24, as the model's raw columns hold them.
// A text that is not UTF-8 returns false and leaves ids as they were.
#include <ostream>
#include <string>

#include "data/text_vocabulary.h"

namespace skynnet {

// Writes the tokenizer and `vocabulary` (its tokens and maxLength, which must be at least 1) into
// the namespace being written; its helpers go in a nested namespace detail. Throws Error if
// maxLength is below 1.
void writeCppTokenizer(std::ostream& out, const TextVocabulary& vocabulary);

// A header of its own with only the tokenizer, in `namespaceName` (for a client of another export,
// and for tests). Throws Error as writeCppTokenizer does, or for a namespace that is not a C++ name.
std::string cppTokenizerHeaderText(const TextVocabulary& vocabulary, const std::string& namespaceName);

}  // namespace skynnet
