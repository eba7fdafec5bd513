#pragma once
// JSON for reports, model file headers and project files: nlohmann's ordered_json (objects keep
// insertion order, so written files read the way the code builds them), parsed strictly and read
// through JsonField, which knows where each value came from (source name and field path, e.g.
// "network.layers[2].units"), so a reader can reject a bad value with a message that names the
// file and the field.
#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace skynnet {

using Json = nlohmann::ordered_json;

// Nesting beyond this is rejected by parseJson, so a hostile file cannot exhaust memory or the
// stack of whatever walks the value.
inline constexpr int jsonMaxDepth = 256;

// Parses one JSON document. Errors read "<sourceName>:<line>:<column>: <problem>"; duplicate
// keys, nesting deeper than jsonMaxDepth and numbers beyond double's range are refused.
Json parseJson(std::string_view text, std::string_view sourceName = "JSON");
// Compact with indent < 0. Non-finite numbers are written as null (JSON has no NaN); invalid
// UTF-8 becomes U+FFFD, so the output always parses again.
std::string dumpJson(const Json& j, int indent = -1);

// A read-only view of one value of a document, with its origin. Typed reads throw Error naming
// the field when the value has another type or range. The viewed Json must outlive the view.
class JsonField {
public:
    // A value built in code: errors name its path only.
    JsonField(const Json& value) : value_(&value) {}
    JsonField(const Json& value, std::string_view sourceName)
        : value_(&value), source_(std::make_shared<const std::string>(sourceName)) {}
    // A value kept from a document after reading it (a model file's "extra"): errors name the
    // document and the value's path there ("model.skym: extra.split.seed ...").
    JsonField(const Json& value, std::string_view sourceName, std::string path)
        : value_(&value), source_(std::make_shared<const std::string>(sourceName)), path_(std::move(path)) {}

    const Json& json() const { return *value_; }

    bool isNull() const { return value_->is_null(); }
    bool isBool() const { return value_->is_boolean(); }
    bool isNumber() const { return value_->is_number(); }
    bool isInteger() const { return value_->is_number_integer(); }  // stored exactly
    bool isString() const { return value_->is_string(); }
    bool isArray() const { return value_->is_array(); }
    bool isObject() const { return value_->is_object(); }

    bool asBool() const;
    double asDouble() const;
    std::int64_t asInt64() const;  // a number with no fractional part, within range
    int asInt() const { return get<int>(); }
    const std::string& asString() const;
    std::vector<JsonField> asArray() const;                           // elements with their paths
    std::vector<std::pair<std::string, JsonField>> asObject() const;  // members in file order
    // get<bool>(), get<int>(), get<double>(), get<std::string>(), get<std::vector<T>>() ...
    template <typename T>
    T get() const;

    // Object and array access. at() throws "missing field 'network.layers'" and the like.
    std::size_t size() const;  // elements or members; throws for other types
    bool contains(std::string_view key) const { return find(key).has_value(); }
    std::optional<JsonField> find(std::string_view key) const;  // empty when missing
    JsonField at(std::string_view key) const;
    JsonField at(std::size_t index) const;
    // The member converted to T, or fallback when the member is missing or null.
    template <typename T>
    T value(std::string_view key, const T& fallback) const {
        const auto j = find(key);
        return j && !j->isNull() ? j->get<T>() : fallback;
    }
    std::string value(std::string_view key, const char* fallback) const { return value<std::string>(key, fallback); }

    // Where this value came from: "model.skynnet: network.layers[2]" ("the top-level value" at
    // the root; no source for values built in code). fail() throws Error("<where> <problem>").
    std::string where() const;
    [[noreturn]] void fail(const std::string& problem) const;
    const std::string& path() const { return path_; }

private:
    JsonField(const Json& value, std::shared_ptr<const std::string> source, std::string path)
        : value_(&value), source_(std::move(source)), path_(std::move(path)) {}
    [[noreturn]] void typeError(const char* expected) const;
    std::string childPath(std::string_view key) const;

    const Json* value_;
    std::shared_ptr<const std::string> source_;  // shared by every field of one document
    std::string path_;
};

template <typename T>
T JsonField::get() const {
    if constexpr (std::same_as<T, Json>) {
        return *value_;
    } else if constexpr (std::same_as<T, bool>) {
        return asBool();
    } else if constexpr (std::integral<T>) {
        const std::int64_t n = asInt64();
        if (!std::in_range<T>(n)) fail("is out of range (" + std::to_string(n) + ")");
        return T(n);
    } else if constexpr (std::floating_point<T>) {
        return T(asDouble());
    } else if constexpr (std::same_as<T, std::string>) {
        return asString();
    } else {
        // std::vector<U>: each element converted, errors naming the element.
        T out;
        for (const JsonField& item : asArray()) out.push_back(item.template get<typename T::value_type>());
        return out;
    }
}

}  // namespace skynnet
