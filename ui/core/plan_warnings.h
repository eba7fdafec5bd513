#pragma once
// Warnings for a split plan that trains, but starves a submodel: too few training rows, too few
// rows of a class it must learn, or such a class missing from its rows. The engine refuses only
// plans that cannot train at all; these are the plans that train and then predict badly, so the
// Split page says so before anyone waits for the run. Computed from the plan and the training
// labels alone (no widgets), so the rule is tested on worked examples.
#include <QString>
#include <QStringList>
#include <vector>

#include "split/split_plan.h"

namespace skynnet::ui {

// Below this many rows (of a submodel, or of one class in a submodel) a network learns little.
constexpr long starvedRowLimit = 10;

// What one submodel lacks; a submodel that lacks nothing is not listed.
struct SubmodelStarvation {
    int submodel = 0;                               // 0-based, as SubmodelPlan::index
    long rows = 0;                                  // its training rows
    std::vector<int> missingClasses;                // classes it must learn with no row at all
    std::vector<std::pair<int, long>> thinClasses;  // classes it must learn, with their few (> 0) rows
};

struct PlanWarnings {
    std::vector<SubmodelStarvation> starved;  // in submodel order
    // The same in a few sentences for a banner: rows, then missing classes (not for class groups,
    // whose planner warns of them itself), then thin classes.
    QStringList lines;
};

// The classes submodel `s` must tell apart: its own for class groups, every class otherwise
// (binary and data shards learn the whole task); none for regression.
std::vector<int> classesToLearn(const SplitPlan& plan, const SubmodelPlan& s, const DataInfo& data);

// `data` is what the plan was made from (its labels are the training rows' labels).
PlanWarnings planWarnings(const SplitPlan& plan, const DataInfo& data, long minRows = starvedRowLimit);

}  // namespace skynnet::ui
