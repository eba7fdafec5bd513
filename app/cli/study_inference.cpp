#include "study_inference.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/error.h"
#include "core/parallel.h"
#include "model_input.h"

namespace skynnet::cli {

void measureModel(StudyRun& run, const std::string& modelPath, int repetitions) {
    LoadedModel model = loadTrainedModel(modelPath);
    run.params = 0;
    run.flopsPerSample = 0;
    for (const NetworkSpec& spec : model.saved.specs) {
        run.params += paramCount(spec);
        run.flopsPerSample += flopsPerSample(spec);
    }
    // Any values do: the cost of a dense or convolutional forward pass does not depend on them.
    const Matrix rows = Matrix::Constant(latencyBatchRows, model.saved.rawColumns(), 0.5f);
    std::vector<double> seconds;
    for (int i = 0; i <= repetitions; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const Matrix out = predictRaw(model.model, model.saved, rows);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (out.rows() != latencyBatchRows)
            throw Error(modelPath + ": predict() gave " + std::to_string(out.rows()) + " rows");
        if (i > 0) seconds.push_back(s);  // the first pass warms caches and allocations up
    }
    std::sort(seconds.begin(), seconds.end());
    const std::size_t n = seconds.size();
    run.latencySeconds = n % 2 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
}

void measureStudyRuns(StudyProgress& progress, int threads) {
    setKernelThreads(threads);
    for (int i = 0; i < progress.total(); ++i) {
        StudyRun& run = progress.run(i);
        if (!run.finished) continue;
        try {
            measureModel(run, progress.files(i).model, 9);
        } catch (const Error& e) {
            std::fprintf(stderr, "warning: %s: no inference figures: %s\n", run.spec.name().c_str(), e.what());
        }
    }
}

}  // namespace skynnet::cli
