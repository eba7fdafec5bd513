#pragma once
// A saved model's answers for new data, the way `skynnet-cli predict` writes them and the desktop
// app's Open Model saves them: one code path, so both front ends read the same data the same way
// and write the same CSV.
#include <functional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "data/data_source.h"
#include "split/combined_model.h"
#include "split/combined_model_file.h"

namespace skynnet {

struct ModelPredictions {
    Matrix outputs;                  // predictRaw's: class probabilities, one sigmoid column, or values
    std::vector<std::string> paths;  // image or text files: the file of each row; empty for other data
    std::string warning;             // unreadable images that were skipped; empty when none
};

// Loads `request` like the model's schema, without targets (a CSV may lack its target column;
// an image file or a folder of images, its subfolders included, is read unlabelled, and so is a
// text model's .txt file or flat folder of them), and runs the model on it. Throws Error naming
// the data file. With a token and a progress callback (both optional) as predictRaw takes them:
// empty outputs once the token is cancelled.
ModelPredictions predictData(CombinedModel& model, const SavedCombinedModel& saved, const DataRequest& request,
                             const CancelToken* cancel = nullptr,
                             const std::function<void(double fraction)>& progress = {});

// The predictions CSV: a header, then one row per sample. Classes: "predicted" (the class name)
// and "probability_<class>" for every class (both classes of a binary model); regression: one
// column per target; reconstruction: one column per input, the reconstruction in the input's own
// units (the preprocessing's scaling undone). Image and text files have the file's "path" first.
// Fields are quoted as RFC 4180 needs.
std::string predictionsCsv(const SavedCombinedModel& model, const ModelPredictions& predictions);

}  // namespace skynnet
