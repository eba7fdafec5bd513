#include "distributed/shipped_rows.h"

#include "core/error.h"
#include "distributed/protocol.h"
#include "distributed/row_description.h"
#include "split/sub_problem.h"

namespace skynnet {
namespace {

Json describe(const Dataset& d, std::vector<float>& floats) {
    const std::size_t at = floats.size();
    floats.resize(at + rowFloatCount(d));
    copyRowFloats(d, floats.data() + at);
    return describeRows(d);
}

Dataset rebuild(const JsonField& j, std::span<const float>& floats) {
    DescribedRows r = readRowDescription(j);
    Dataset& d = r.data;
    d.source = "rows shipped by rank 0";
    d.features = Eigen::Map<const Matrix>(takeFloats(floats, r.featureFloats(), j.at("rows")).data(), r.rows,
                                          r.columns);
    d.targets = r.targets(takeFloats(floats, r.targetFloats(), j.at("targetColumns")));
    d.validate();
    return std::move(d);
}

}  // namespace

EncodedRows encodeShippedRows(const SplitPlan& plan, int index, const Dataset& train, const Dataset* validation) {
    EncodedRows out;
    Json j = Json::object({{"train", describe(train.subset(plan.submodels[std::size_t(index)].rows), out.floats)}});
    if (validation && validation->size() > 0)
        j["validation"] = describe(validation->subset(ownRows(plan.rule(), index, *validation)), out.floats);
    out.json = dumpJson(j);
    return out;
}

ShippedRows decodeShippedRows(const std::string& json, const std::vector<float>& floats) {
    const Json doc = parseMessage(json, "MPI shipped rows");
    const JsonField j(doc, "MPI shipped rows");
    ShippedRows r;
    std::span<const float> left(floats);
    r.train = rebuild(j.at("train"), left);
    if (const auto v = j.find("validation")) r.validation = rebuild(*v, left);
    if (!left.empty()) j.fail("carries " + std::to_string(left.size()) + " floats too many");
    return r;
}

}  // namespace skynnet
