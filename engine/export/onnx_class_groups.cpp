#ifdef SKYNNET_HAVE_ONNX
#include "export/onnx_class_groups.h"

#include <algorithm>
#include <cstdint>

#include "core/error.h"

namespace skynnet::onnx_graph {

namespace {

std::string tagOf(std::size_t i) { return "sub" + std::to_string(i + 1) + "/combine"; }

// Submodel i's columns as votes on the C classes, a [columns, C] matrix for a MatMul: local class k
// goes to classes[k]; with `other`, the last row spreads "other" evenly over the classes it does
// not own (a zero row when it owns them all: it then has no say beyond its own classes).
std::vector<float> votePlacement(const CombinationRule& r, std::size_t i, bool other) {
    const auto& classes = r.classes[i];
    const std::size_t c = std::size_t(r.outputs), owned = classes.size();
    std::vector<float> place((owned + (other ? 1 : 0)) * c, 0.0f);
    for (std::size_t k = 0; k < owned; ++k) place[k * c + std::size_t(classes[k])] = 1;
    if (other && owned < c) {
        std::vector<float> spread(c, 1.0f / float(c - owned));
        for (int k : classes) spread[std::size_t(k)] = 0;
        std::copy(spread.begin(), spread.end(), place.begin() + std::ptrdiff_t(owned * c));
    }
    return place;
}

std::string placed(GraphBuilder& b, const CombinationRule& r, const std::vector<std::string>& subs, std::size_t i,
                   bool other) {
    const std::int64_t rows = std::int64_t(r.classes[i].size()) + (other ? 1 : 0);
    const std::string m = b.floats(tagOf(i) + "/placement", {rows, r.outputs}, votePlacement(r, i, other));
    return b.op("MatMul", {subs[i], m}, tagOf(i) + "/placed");
}

// Without "other" the clamped logs are placed (log 1 = 0 where a submodel has no say); with it,
// every class gets a vote from every submodel, so the votes are placed first, then clamped.
std::string product(GraphBuilder& b, const CombinationRule& r, const std::vector<std::string>& subs) {
    const std::string floor = b.scalar("min_probability", 1e-30f);
    std::vector<std::string> logs;
    for (std::size_t i = 0; i < subs.size(); ++i) {
        const std::string tag = tagOf(i);
        if (r.otherOutput) {
            const std::string votes = placed(b, r, subs, i, true);
            logs.push_back(b.op("Log", {b.op("Max", {votes, floor}, tag + "/clamped")}, tag + "/log"));
            continue;
        }
        const std::string clampedLogs = b.op("Log", {b.op("Max", {subs[i], floor}, tag + "/clamped")}, tag + "/log");
        std::vector<float> place(r.classes[i].size() * std::size_t(r.outputs), 0.0f);
        for (std::size_t k = 0; k < r.classes[i].size(); ++k)
            place[k * std::size_t(r.outputs) + std::size_t(r.classes[i][k])] = 1;
        const std::string m = b.floats(tag + "/placement", {std::int64_t(r.classes[i].size()), r.outputs}, place);
        logs.push_back(b.op("MatMul", {clampedLogs, m}, tag + "/placed"));
    }
    return b.opAxis("Softmax", {b.op("Sum", logs, "log_scores")}, "combined", 1);
}

// The row sums of the voters' votes, times 1 / (voters) per class (0 where nobody votes, whose
// mean the engine leaves at 0), each row divided by its sum. A softmax row has a largest value of
// at least 1 / columns, and every column of it votes somewhere, so no row sums to 0.
std::string sum(GraphBuilder& b, const CombinationRule& r, const std::vector<std::string>& subs) {
    const std::size_t c = std::size_t(r.outputs);
    std::vector<std::string> votes;
    std::vector<int> voters(c, 0);
    for (std::size_t i = 0; i < subs.size(); ++i) {
        votes.push_back(placed(b, r, subs, i, r.otherOutput));
        const bool othersToo = r.otherOutput && r.classes[i].size() < c;
        for (std::size_t k = 0; k < c; ++k) voters[k] += othersToo ? 1 : 0;
        if (!othersToo)
            for (int k : r.classes[i]) ++voters[std::size_t(k)];
    }
    std::vector<float> inverse(c, 0.0f);
    for (std::size_t k = 0; k < c; ++k)
        if (voters[k] > 0) inverse[k] = 1.0f / float(voters[k]);
    const std::string mean =
        b.op("Mul", {b.op("Sum", votes, "vote_sums"), b.floats("inverse_voters", {r.outputs}, inverse)}, "mean_votes");
    const std::string total = b.op("MatMul", {mean, b.floats("ones", {r.outputs, 1}, std::vector<float>(c, 1.0f))},
                                   "mean_votes_total");
    return b.op("Div", {mean, total}, "combined");
}

// Submodel i's term A^T A of Q, [N, C, C] in double: row k of A is e_{classes[k]} - r_k 1_{I}, r
// its own softmax columns renormalised (the "other" column dropped).
std::string couplingTerm(GraphBuilder& b, const CombinationRule& r, const std::vector<std::string>& subs, std::size_t i,
                         const std::string& floor) {
    const std::string tag = tagOf(i);
    const auto& classes = r.classes[i];
    const std::int64_t m = std::int64_t(classes.size()), c = r.outputs;
    std::string own = subs[i];
    if (r.otherOutput)
        own = b.op("Slice",
                   {own, b.int64s(tag + "/own_start", {1}, {0}), b.int64s(tag + "/own_end", {1}, {m}),
                    b.int64s(tag + "/own_axis", {1}, {1})},
                   tag + "/own");
    GraphBuilder::setInt(b.node("Cast", {own}, tag + "/own_double"), "to", onnx::TensorProto::DOUBLE);
    const std::string total =
        b.op("MatMul", {tag + "/own_double", b.doubles(tag + "/ones", {m, 1}, std::vector<double>(std::size_t(m), 1))},
             tag + "/own_total");
    const std::string ratios =
        b.op("Div", {tag + "/own_double", b.op("Max", {total, floor}, tag + "/own_total_clamped")}, tag + "/ratios");
    // A and its transpose each from r: ONNX Runtime fuses a Transpose into the next MatMul as
    // FusedMatMul, which it implements for float only.
    std::vector<double> unit(std::size_t(m * c), 0.0), unitTransposed(std::size_t(c * m), 0.0),
        members(std::size_t(c), 0.0);
    for (std::int64_t k = 0; k < m; ++k) {
        const std::int64_t owned = classes[std::size_t(k)];
        unit[std::size_t(k * c + owned)] = unitTransposed[std::size_t(owned * m + k)] = 1;
        members[std::size_t(owned)] = 1;
    }
    const std::string asColumn = b.op("Unsqueeze", {ratios, b.int64s(tag + "/column_axis", {1}, {2})},
                                      tag + "/ratio_column");  // [N, m, 1]
    const std::string asRow = b.op("Unsqueeze", {ratios, b.int64s(tag + "/row_axis", {1}, {1})},
                                   tag + "/ratio_row");  // [N, 1, m]
    // r_k 1_I, [N, m, C], and its transpose, [N, C, m].
    const std::string spread = b.op("Mul", {asColumn, b.doubles(tag + "/members", {c}, members)}, tag + "/ratio_rows");
    const std::string spreadTransposed = b.op("Mul", {asRow, b.doubles(tag + "/member_column", {c, 1}, members)},
                                              tag + "/ratio_columns");
    const std::string a = b.op("Sub", {b.doubles(tag + "/unit_rows", {m, c}, unit), spread}, tag + "/A");
    const std::string at = b.op("Sub", {b.doubles(tag + "/unit_columns", {c, m}, unitTransposed), spreadTransposed},
                                tag + "/A_transposed");
    return b.op("MatMul", {at, a}, tag + "/AtA");
}

// Gauss-Jordan on (Q + eps I) x = 1 without pivoting: step k divides column k by the pivot and
// subtracts row k from every other row (the last step needs only the right-hand side); at the end
// the matrix is diagonal and x_k = b_k / pivot_k.
std::string coupling(GraphBuilder& b, const CombinationRule& r, const std::vector<std::string>& subs) {
    const std::int64_t c = r.outputs;
    const std::size_t cs = std::size_t(c);
    const std::string floor = b.doubles("coupling/min_total", {}, {1e-30});
    std::vector<std::string> terms;
    for (std::size_t i = 0; i < subs.size(); ++i) terms.push_back(couplingTerm(b, r, subs, i, floor));
    std::vector<double> identity(cs * cs, 0.0), ridge(cs * cs, 0.0);
    for (std::size_t k = 0; k < cs; ++k) identity[k * cs + k] = 1, ridge[k * cs + k] = kCouplingRidge;
    terms.push_back(b.doubles("coupling/ridge", {c, c}, ridge));
    std::string matrix = b.op("Sum", terms, "coupling/Q");  // [N, C, C]
    std::string rhs = b.doubles("coupling/ones", {c, 1}, std::vector<double>(cs, 1.0));
    const std::string rowAxis = b.int64s("coupling/row_axis", {1}, {1});
    const std::string columnAxis = b.int64s("coupling/column_axis", {1}, {2});
    for (std::int64_t k = 0; k < c; ++k) {
        const std::string tag = "coupling/step" + std::to_string(k + 1);
        const std::string from = b.int64s(tag + "/from", {1}, {k}), to = b.int64s(tag + "/to", {1}, {k + 1});
        const std::string row = b.op("Slice", {matrix, from, to, rowAxis}, tag + "/pivot_row");     // [N, 1, C]
        const std::string pivot = b.op("Slice", {row, from, to, columnAxis}, tag + "/pivot");       // [N, 1, 1]
        const std::string column = b.op("Slice", {matrix, from, to, columnAxis}, tag + "/column");  // [N, C, 1]
        std::vector<double> others(cs, 1.0);
        others[std::size_t(k)] = 0;
        const std::string factors =
            b.op("Mul", {b.op("Div", {column, pivot}, tag + "/ratios"), b.doubles(tag + "/others", {c, 1}, others)},
                 tag + "/factors");
        if (k + 1 < c)
            matrix = b.op("Sub", {matrix, b.op("Mul", {factors, row}, tag + "/subtracted")}, tag + "/matrix");
        // The right-hand side starts as the constant ones [C, 1], whose pivot entry is 1.
        const std::string rhsPivot = k == 0
                                         ? factors
                                         : b.op("Mul",
                                                {factors, b.op("Slice", {rhs, from, to, rowAxis}, tag + "/rhs_pivot")},
                                                tag + "/rhs_subtracted");
        rhs = b.op("Sub", {rhs, rhsPivot}, tag + "/rhs");
    }
    const std::string diagonal =
        b.op("MatMul",
             {b.op("Mul", {matrix, b.doubles("coupling/identity", {c, c}, identity)}, "coupling/diagonal_only"),
              "coupling/ones"},
             "coupling/diagonal");  // [N, C, 1]
    const std::string x = b.opAxis("Flatten", {b.op("Div", {rhs, diagonal}, "coupling/x")}, "coupling/x_rows", 1);
    const std::string positive = b.op("Max", {x, b.doubles("coupling/zero", {}, {0.0})}, "coupling/positive");
    const std::string total = b.op("MatMul", {positive, "coupling/ones"}, "coupling/total");
    const std::string p = b.op("Div", {positive, total}, "coupling/p");
    GraphBuilder::setInt(b.node("Cast", {p}, "combined"), "to", onnx::TensorProto::FLOAT);
    return "combined";
}

// The stacked rule (split/stacked_rule.h): each submodel's clamped log-probabilities side by side,
// times W^T, plus b, then a softmax. In float, where the engine computes in double: its weights are
// of order 1 and D is tens of columns, so the two differ by about 1e-6.
std::string stacked(GraphBuilder& b, const CombinationRule& r, const std::vector<std::string>& subs) {
    if (!r.stacked) throw Error("ONNX export: the model has no stacked weights: " + stackedMissingReason());
    const StackedWeights& w = *r.stacked;
    const std::string floor = b.scalar("stacked/min_probability", float(kStackedMinProbability));
    std::vector<std::string> logs;
    for (std::size_t i = 0; i < subs.size(); ++i)
        logs.push_back(b.op("Log", {b.op("Max", {subs[i], floor}, tagOf(i) + "/clamped")}, tagOf(i) + "/log"));
    const std::string features = b.opAxis("Concat", logs, "stacked/features", 1);
    std::vector<float> transposed(std::size_t(w.features) * std::size_t(w.classes));
    for (int c = 0; c < w.classes; ++c)
        for (int d = 0; d < w.features; ++d)
            transposed[std::size_t(d) * std::size_t(w.classes) + std::size_t(c)] = float(
                w.weights[std::size_t(c) * std::size_t(w.features) + std::size_t(d)]);
    const std::string weights = b.floats("stacked/weights", {w.features, w.classes}, transposed);
    const std::string bias = b.floats("stacked/bias", {w.classes}, std::vector<float>(w.bias.begin(), w.bias.end()));
    const std::string logits = b.op("Add", {b.op("MatMul", {features, weights}, "stacked/product"), bias},
                                    "stacked/logits");
    return b.opAxis("Softmax", {logits}, "combined", 1);
}

}  // namespace

std::string addClassGroupCombination(GraphBuilder& b, const CombinationRule& rule,
                                     const std::vector<std::string>& subs) {
    switch (rule.classCombine) {
    case ClassCombine::Product: return product(b, rule, subs);
    case ClassCombine::Sum: return sum(b, rule, subs);
    case ClassCombine::Coupling: return coupling(b, rule, subs);
    case ClassCombine::Stacked: return stacked(b, rule, subs);
    }
    throw Error("ONNX export: unknown class-group rule");
}

}  // namespace skynnet::onnx_graph
#endif
