#pragma once
// What a front end does with a model it loaded: rebuild the networks, predict, save it again and
// read that back. A model that loads must survive all of it without a crash.
#include <cstdio>
#include <cstdlib>

#include "core/error.h"
#include "fuzz_support.h"
#include "split/combined_model_file.h"

namespace skynnet::fuzz {

inline void useModel(const SavedCombinedModel& m) {
    CombinedModel model = buildCombinedModel(m);
    // The networks' sizes are bounded by the weights in the file, the raw width is not (one
    // integer): a harness limit, so a claimed width of 2^31 costs no 8 GB matrix here.
    if (m.rawColumns() <= (1 << 16)) predictRaw(model, m, Matrix::Zero(2, m.rawColumns()));
    const std::string copy = tempPath("resaved.skynnet");
    saveCombinedModel(copy, m);
    try {
        loadAnyModel(copy);
    } catch (const Error& e) {
        std::fprintf(stderr, "a model that loaded, saved again, does not load: %s\n", e.what());
        std::abort();
    }
}

}  // namespace skynnet::fuzz
