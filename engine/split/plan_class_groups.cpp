// Multiclass classification by pairwise class groups (method.md §2).
#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/rng.h"
#include "split/plan_builders.h"

namespace skynnet::detail {
namespace {

// The random stream of the "other" rows, apart from the shards' and the weights' streams.
constexpr std::uint64_t kOtherStream = 0x07E1u;

// "0-3, 7-9": ascending classes as runs of consecutive indices.
std::string classRanges(const std::vector<int>& classes) {
    std::string s;
    for (std::size_t i = 0; i < classes.size();) {
        std::size_t j = i;
        while (j + 1 < classes.size() && classes[j + 1] == classes[j] + 1) ++j;
        if (!s.empty()) s += ", ";
        s += std::to_string(classes[i]);
        if (j > i) s += "-" + std::to_string(classes[j]);
        i = j + 1;
    }
    return s;
}

// Beside its own rows, `round(share x own)` rows of the classes the submodel does not own (all of
// them if fewer), drawn without replacement by a partial Fisher-Yates shuffle seeded from the plan
// seed and the submodel's index alone: every backend that makes this plan draws the same rows.
void addOtherRows(SubmodelPlan& s, const DataInfo& data, double share, std::uint64_t seed) {
    std::vector<bool> owned(std::size_t(data.classCount), false);
    for (int k : s.classes) owned[std::size_t(k)] = true;
    std::vector<int> others;
    for (std::size_t r = 0; r < data.labels.size(); ++r)
        if (!owned[std::size_t(data.labels[r])]) others.push_back(int(r));
    s.otherRows = addBorrowedRows(s, std::move(others), share, seed, kOtherStream);
}

}  // namespace

void planClassGroups(SplitPlan& plan, const DataInfo& data, const SplitOptions& options) {
    const int c = data.classCount, n = options.requested;
    if (c < 2) throw Error("class groups: need at least 2 declared classes, the data declares " + std::to_string(c));
    // The largest g with g(g-1)/2 <= N and g <= C; N = 1 or 2 gives g = 2, the original model.
    int g = 2;
    while (g + 1 <= c && (g + 1) * g / 2 <= n) ++g;
    plan.groups = g;
    plan.factor = g / 2.0;

    // Groups from the declared class order, never from the labels present in this split.
    int next = 0;
    for (int size : evenSizes(c, g)) {
        std::vector<int> group(static_cast<std::size_t>(size));
        for (int& k : group) k = next++;
        plan.groupClasses.push_back(std::move(group));
    }
    std::vector<std::vector<int>> rowsOf(static_cast<std::size_t>(c));
    for (std::size_t r = 0; r < data.labels.size(); ++r) rowsOf[std::size_t(data.labels[r])].push_back(int(r));

    for (int a = 0; a < g; ++a) {
        for (int b = a + 1; b < g; ++b) {  // pairs in lexicographic order
            SubmodelPlan s;
            s.index = int(plan.submodels.size());
            s.classes = plan.groupClasses[std::size_t(a)];
            const auto& second = plan.groupClasses[std::size_t(b)];
            s.classes.insert(s.classes.end(), second.begin(), second.end());  // ascending: groups are contiguous
            s.role = "groups " + std::to_string(a) + "+" + std::to_string(b) + ": classes " + classRanges(s.classes);
            const std::string who = "submodel " + std::to_string(s.index + 1) + " (" + s.role + ")";
            std::vector<int> missing;
            for (int k : s.classes) {
                const auto& rows = rowsOf[std::size_t(k)];
                if (rows.empty()) missing.push_back(k);
                s.rows.insert(s.rows.end(), rows.begin(), rows.end());
            }
            std::sort(s.rows.begin(), s.rows.end());
            if (s.rows.empty())
                throw Error("class groups: " + who + " has no training sample: none of its classes occurs in the " +
                            "training data");
            // Trainable, as the original would be on this data, but the class can never win: say so.
            for (int k : missing)
                plan.warnings.push_back(who + " has no training sample of class " + data.className(k) +
                                        ", so the combined model will hardly ever predict it");
            plan.submodels.push_back(std::move(s));
        }
    }
    requireTwoClassesEach(plan, data, "class groups",
                          "the other classes of its groups have no training rows; request "
                          "fewer submodels, so that each group holds more classes");
    // After the check above: "other" rows must not make a submodel that sees one class of its own pass.
    if (options.otherShare > 0)
        for (SubmodelPlan& sub : plan.submodels) addOtherRows(sub, data, options.otherShare, options.seed);
    const int s = plan.submodelCount();
    if (s != n) {
        std::string w = "N=" + std::to_string(n) + " gives " + std::to_string(s) + " submodel" + (s == 1 ? "" : "s") +
                        " (" + std::to_string(g) + " groups)";
        if (g == c && (g + 1) * g / 2 <= n) w += ": with " + std::to_string(c) + " classes that is the most";
        else if (s == 1) w += ": the original model";
        plan.warnings.push_back(w);
    }
}

}  // namespace skynnet::detail
