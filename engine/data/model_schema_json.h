#pragma once
// The one writer and reader of a schema in a model's JSON header, shared by both kinds of model
// file and by a project run's model, so the fields stay exactly what files have always held:
// "task", "classNames", "targetNames", "featureNames" and extra's "target_column", and for text
// models (only) "vocabulary" (data/text_vocabulary.h's JSON) and extra's "text_column". The
// categoricals are not written twice: they are the preprocessing's one-hot columns
// ("preprocessing.oneHot"); the sample shape follows from the network's input.
#include <optional>

#include "data/model_schema.h"
#include "data/preprocessing.h"
#include "io/json.h"

namespace skynnet {

// Adds the name lists to `header`, and `extra` (free-form, may be null) as its "extra" plus the
// target column when the schema names one. The task is the caller's to write: a model file puts
// it right after "kind", a project run's model takes it from the run's plan.
void writeSchemaFields(Json& header, const ModelSchema& schema, const Json& extra);

// The schema of a header written by writeSchemaFields (or by any earlier build): `task` when
// given, else the header's "task" (errors name the field). Missing name lists read as empty.
ModelSchema readSchemaFields(const JsonField& header, const Preprocessing& preprocessing, const Shape& networkInput,
                             std::optional<Task> task = std::nullopt);

// The raw row layout of a model: the network's input when the preprocessing keeps the columns
// (none fitted, or no one-hot columns), else flat over the raw columns.
Shape rawSampleShape(const Preprocessing& preprocessing, const Shape& networkInput);

}  // namespace skynnet
