#include "distributed/shipped_rows.h"

#include "core/error.h"
#include "distributed/protocol.h"
#include "split/sub_problem.h"

namespace skynnet {
namespace {

Json describe(const Dataset& d, std::vector<float>& floats) {
    floats.insert(floats.end(), d.features.data(), d.features.data() + d.features.size());
    floats.insert(floats.end(), d.targets.data(), d.targets.data() + d.targets.size());
    return Json::object({{"task", taskName(d.task)},
                         {"classNames", d.classNames},
                         {"targetNames", d.targetNames},
                         {"featureNames", d.featureNames},
                         {"sampleShape", {d.sampleShape.channels, d.sampleShape.height, d.sampleShape.width}},
                         {"rows", d.features.rows()},
                         {"columns", d.features.cols()},
                         {"targetColumns", d.targets.cols()},
                         {"labels", d.labels}});
}

Matrix take(const std::vector<float>& floats, std::size_t& at, Index rows, Index cols, const JsonField& where) {
    const std::size_t n = std::size_t(rows) * std::size_t(cols);
    if (n > floats.size() - at) where.fail("needs " + std::to_string(n) + " floats, the message has " + std::to_string(floats.size() - at) + " left");
    Matrix m(rows, cols);
    std::copy(floats.begin() + std::ptrdiff_t(at), floats.begin() + std::ptrdiff_t(at + n), m.data());
    at += n;
    return m;
}

Dataset rebuild(const JsonField& j, const std::vector<float>& floats, std::size_t& at) {
    Dataset d;
    d.source = "rows shipped by rank 0";
    d.task = parseTask(j.at("task").asString());
    d.classNames = j.at("classNames").get<std::vector<std::string>>();
    d.targetNames = j.at("targetNames").get<std::vector<std::string>>();
    d.featureNames = j.at("featureNames").get<std::vector<std::string>>();
    const auto shape = j.at("sampleShape").get<std::vector<int>>();
    if (shape.size() != 3) j.at("sampleShape").fail("expects 3 numbers");
    d.sampleShape = Shape{shape[0], shape[1], shape[2]};
    const Index rows = j.at("rows").asInt64(), cols = j.at("columns").asInt64();
    d.features = take(floats, at, rows, cols, j.at("rows"));
    d.targets = take(floats, at, rows > 0 && j.at("targetColumns").asInt64() > 0 ? rows : 0, j.at("targetColumns").asInt64(),
                     j.at("targetColumns"));
    d.labels = j.at("labels").get<std::vector<int>>();
    d.validate();
    return d;
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
    std::size_t at = 0;
    r.train = rebuild(j.at("train"), floats, at);
    if (const auto v = j.find("validation")) r.validation = rebuild(*v, floats, at);
    if (at != floats.size()) j.fail("carries " + std::to_string(floats.size() - at) + " floats too many");
    return r;
}

}  // namespace skynnet
