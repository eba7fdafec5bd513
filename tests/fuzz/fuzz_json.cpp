// The JSON parser (nlohmann's, made strict by parseJson), with a round trip: whatever parses must
// dump to text that parses back equal.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/error.h"
#include "fuzz_support.h"
#include "io/json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using skynnet::Json;
    Json parsed;
    try {
        parsed = skynnet::parseJson(skynnet::fuzz::asText(data, size), "fuzz.json");
    } catch (const skynnet::Error& e) {
        skynnet::fuzz::rejected(e);
        return 0;
    }
    for (int indent : {-1, 2}) {
        const std::string text = skynnet::dumpJson(parsed, indent);
        try {
            if (!(skynnet::parseJson(text, "dumped") == parsed)) {
                std::fprintf(stderr, "round trip changed the value: %s\n", text.c_str());
                std::abort();
            }
        } catch (const skynnet::Error& e) {
            std::fprintf(stderr, "dumped text does not parse (%s): %s\n", e.what(), text.c_str());
            std::abort();
        }
    }
    return 0;
}
