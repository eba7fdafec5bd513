#include "io/json.h"

#include <cmath>

#include "core/error.h"

namespace skynnet {

namespace {

const char* typeName(const Json& j) {
    switch (j.type()) {
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "a number";
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    default: return "null";
    }
}

}  // namespace

std::string JsonField::where() const {
    std::string w = source_ && !source_->empty() ? *source_ + ": " : std::string();
    return w + (path_.empty() ? std::string("the top-level value") : path_);
}

void JsonField::fail(const std::string& problem) const { throw Error(where() + " " + problem); }

void JsonField::typeError(const char* expected) const {
    fail(std::string("must be ") + expected + ", not " + typeName(*value_));
}

std::string JsonField::childPath(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

bool JsonField::asBool() const {
    if (!isBool()) typeError("true or false");
    return value_->get<bool>();
}

double JsonField::asDouble() const {
    if (!isNumber()) typeError("a number");
    return value_->get<double>();
}

std::int64_t JsonField::asInt64() const {
    if (value_->is_number_unsigned()) {
        const auto n = value_->get<std::uint64_t>();
        if (n > std::uint64_t(INT64_MAX)) fail("is out of range (" + std::to_string(n) + ")");
        return std::int64_t(n);
    }
    if (value_->is_number_integer()) return value_->get<std::int64_t>();
    if (value_->is_number_float()) {
        const double d = value_->get<double>();
        // 2^63 itself is not representable as int64, hence the strict upper bound.
        if (d == std::trunc(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0) return std::int64_t(d);
        fail("must be a whole number, not " + dumpJson(*value_));
    }
    typeError("a whole number");
}

const std::string& JsonField::asString() const {
    if (!isString()) typeError("a string");
    return value_->get_ref<const std::string&>();
}

std::vector<JsonField> JsonField::asArray() const {
    if (!isArray()) typeError("an array");
    std::vector<JsonField> items;
    items.reserve(value_->size());
    for (std::size_t i = 0; i < value_->size(); ++i)
        items.push_back(JsonField((*value_)[i], source_, path_ + "[" + std::to_string(i) + "]"));
    return items;
}

std::vector<std::pair<std::string, JsonField>> JsonField::asObject() const {
    if (!isObject()) typeError("an object");
    std::vector<std::pair<std::string, JsonField>> members;
    members.reserve(value_->size());
    for (const auto& [key, v] : value_->items()) members.emplace_back(key, JsonField(v, source_, childPath(key)));
    return members;
}

std::size_t JsonField::size() const {
    if (!isArray() && !isObject()) typeError("an array or an object");
    return value_->size();
}

std::optional<JsonField> JsonField::find(std::string_view key) const {
    if (!isObject()) typeError("an object");
    const auto it = value_->find(key);
    if (it == value_->end()) return std::nullopt;
    return JsonField(*it, source_, childPath(key));
}

JsonField JsonField::at(std::string_view key) const {
    if (const auto j = find(key)) return *j;
    std::string w = source_ && !source_->empty() ? *source_ + ": " : std::string();
    throw Error(w + "missing field '" + childPath(key) + "'");
}

JsonField JsonField::at(std::size_t index) const {
    if (!isArray()) typeError("an array");
    if (index >= value_->size())
        fail("has no element [" + std::to_string(index) + "] (it has " + std::to_string(value_->size()) + ")");
    return JsonField((*value_)[index], source_, path_ + "[" + std::to_string(index) + "]");
}

}  // namespace skynnet
