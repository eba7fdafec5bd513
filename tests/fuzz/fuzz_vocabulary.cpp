// The vocabulary reader (vocabularyFromJson, data/text_vocabulary.h), as a text model's file holds
// it: the input is the JSON text. A vocabulary that reads must write and read back equal, and
// encoding each of its tokens must give that token's id.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "data/text_vocabulary.h"
#include "fuzz_support.h"
#include "io/json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace skynnet;
    TextVocabulary v;
    try {
        const Json j = parseJson(fuzz::asText(data, size), "vocabulary.json");
        v = vocabularyFromJson(JsonField(j, "vocabulary.json"));
    } catch (const Error& e) {
        fuzz::rejected(e);
        return 0;
    }
    const std::string saved = dumpJson(toJson(v));
    try {
        const Json j = parseJson(saved, "saved");
        if (!(vocabularyFromJson(JsonField(j, "saved")) == v)) {
            std::fprintf(stderr, "vocabulary changed on reading back: %s\n", saved.c_str());
            std::abort();
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "a vocabulary that read does not read back (%s): %s\n", e.what(), saved.c_str());
        std::abort();
    }
    for (std::size_t i = 0; i < v.tokens.size(); ++i) {
        const std::vector<std::int32_t> ids = v.encode(v.tokens[i], 2);
        if (ids[0] != TextVocabulary::paddingId || ids[1] != TextVocabulary::firstTokenId + std::int32_t(i)) {
            std::fprintf(stderr, "token %zu (%s) does not encode to its id\n", i, v.tokens[i].c_str());
            std::abort();
        }
    }
    return 0;
}
