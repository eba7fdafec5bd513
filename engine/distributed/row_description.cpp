#include "distributed/row_description.h"

#include <algorithm>

#include "core/error.h"

namespace skynnet {

Json describeRows(const Dataset& d) {
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

std::size_t rowFloatCount(const Dataset& d) { return std::size_t(d.features.size()) + std::size_t(d.targets.size()); }

void copyRowFloats(const Dataset& d, float* to) {
    to = std::copy(d.features.data(), d.features.data() + d.features.size(), to);
    std::copy(d.targets.data(), d.targets.data() + d.targets.size(), to);
}

DescribedRows readRowDescription(const JsonField& j) {
    DescribedRows r;
    Dataset& d = r.data;
    d.task = parseTask(j.at("task").asString());
    d.classNames = j.at("classNames").get<std::vector<std::string>>();
    d.targetNames = j.at("targetNames").get<std::vector<std::string>>();
    d.featureNames = j.at("featureNames").get<std::vector<std::string>>();
    const auto shape = j.at("sampleShape").get<std::vector<int>>();
    if (shape.size() != 3) j.at("sampleShape").fail("expects 3 numbers");
    d.sampleShape = Shape{shape[0], shape[1], shape[2]};
    r.rows = j.at("rows").asInt64();
    r.columns = j.at("columns").asInt64();
    r.targetColumns = j.at("targetColumns").asInt64();
    if (r.rows < 0 || r.columns < 0 || r.targetColumns < 0) j.fail("has a negative size");
    d.labels = j.at("labels").get<std::vector<int>>();
    if (!predictsValues(d.task) && Index(d.labels.size()) != r.rows)
        j.at("labels").fail("has " + std::to_string(d.labels.size()) + " labels for " + std::to_string(r.rows) +
                            " rows");
    return r;
}

Matrix DescribedRows::targets(std::span<const float> floats) const {
    Matrix t(targetColumns > 0 ? rows : 0, targetColumns);
    std::copy(floats.begin(), floats.end(), t.data());
    return t;
}

std::span<const float> takeFloats(std::span<const float>& floats, std::size_t n, const JsonField& where) {
    if (n > floats.size())
        where.fail("needs " + std::to_string(n) + " floats, " + std::to_string(floats.size()) + " are left");
    const std::span<const float> part = floats.first(n);
    floats = floats.subspan(n);
    return part;
}

}  // namespace skynnet
