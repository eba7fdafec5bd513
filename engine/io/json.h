#pragma once
// A small JSON value for reports, model file headers and project files. Objects keep insertion
// order so written files read the way the code builds them. Values parsed from text remember
// where they came from (source name and field path, e.g. "network.layers[2].units"), so a reader
// can reject a bad value with a message that names the file and the field.
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace skynnet {

class Json {
public:
    enum class Type { Null, Bool, Number, String, Array, Object };
    using Array = std::vector<Json>;
    using Member = std::pair<std::string, Json>;
    using Object = std::vector<Member>;

    // Nesting beyond this is rejected by parse(), so a hostile file cannot exhaust the stack.
    static constexpr int maxDepth = 256;

    Json() = default;  // null
    Json(std::nullptr_t) {}
    Json(bool b) : value_(b) {}
    // Integers are kept exactly (up to 64 bits signed); larger unsigned values become doubles.
    template <std::integral T>
        requires(!std::same_as<T, bool>)
    Json(T n) {
        if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(std::int64_t)) {
            if (n > std::uint64_t(INT64_MAX)) {
                value_ = double(n);
                return;
            }
        }
        value_ = std::int64_t(n);
    }
    template <std::floating_point T>
    Json(T x) : value_(double(x)) {}
    Json(const char* s) : value_(std::string(s)) {}
    Json(std::string s) : value_(std::move(s)) {}
    Json(std::string_view s) : value_(std::string(s)) {}
    Json(Array a) : value_(std::move(a)) {}
    // Any vector of convertible values (numbers, strings, nested Json) becomes an array.
    template <typename T>
        requires(!std::same_as<T, Json> && std::constructible_from<Json, const T&>)
    Json(const std::vector<T>& items) : value_(Array(items.begin(), items.end())) {}

    static Json array(std::initializer_list<Json> items = {}) { return Json(Array(items)); }
    static Json object(std::initializer_list<Member> members = {});

    // Parses one JSON document. Errors read "<sourceName>:<line>:<column>: <problem>".
    static Json parse(std::string_view text, std::string_view sourceName = "JSON");
    // Compact with indent < 0; otherwise one member per line, arrays of plain values on one line.
    // Non-finite numbers are written as null (JSON has no NaN); invalid UTF-8 becomes U+FFFD.
    std::string dump(int indent = -1) const;

    Type type() const;
    bool isNull() const { return std::holds_alternative<std::nullptr_t>(value_); }
    bool isBool() const { return std::holds_alternative<bool>(value_); }
    bool isNumber() const { return isInteger() || std::holds_alternative<double>(value_); }
    bool isInteger() const { return std::holds_alternative<std::int64_t>(value_); }  // stored exactly
    bool isString() const { return std::holds_alternative<std::string>(value_); }
    bool isArray() const { return std::holds_alternative<Array>(value_); }
    bool isObject() const { return std::holds_alternative<Object>(value_); }

    // Typed reads: each throws Error naming the field when the value has another type or range.
    bool asBool() const;
    double asDouble() const;
    std::int64_t asInt64() const;  // a number with no fractional part, within range
    int asInt() const;
    const std::string& asString() const;
    const Array& asArray() const;
    const Object& asObject() const;
    // get<bool>(), get<int>(), get<double>(), get<std::string>(), get<std::vector<T>>() ...
    template <typename T>
    T get() const;

    // Object and array access. at() throws "missing field 'network.layers'" and the like.
    std::size_t size() const;  // elements or members; throws for other types
    bool contains(std::string_view key) const;
    const Json* find(std::string_view key) const;  // nullptr when missing
    const Json& at(std::string_view key) const;
    const Json& at(std::size_t index) const;
    // The member converted to T, or fallback when the member is missing or null.
    template <typename T>
    T value(std::string_view key, const T& fallback) const {
        const Json* j = find(key);
        return j && !j->isNull() ? j->get<T>() : fallback;
    }
    std::string value(std::string_view key, const char* fallback) const {
        return value<std::string>(key, fallback);
    }

    // Building: a null value turns into an object (operator[]) or an array (push_back).
    Json& operator[](std::string_view key);
    Json& push_back(Json item);
    bool erase(std::string_view key);

    // Equal type and content; objects compare regardless of member order, 1 == 1.0.
    bool operator==(const Json& other) const;

    // Where this value came from: "model.skynnet: network.layers[2]" ("the top-level value" at
    // the root; no source for values built in code). fail() throws Error("<where> <problem>").
    std::string where() const;
    [[noreturn]] void fail(const std::string& problem) const;
    const std::string& path() const { return path_; }

private:
    friend class JsonParser;
    void setOrigin(std::shared_ptr<const std::string> source, std::string path);
    [[noreturn]] void typeError(const char* expected) const;
    std::string childPath(std::string_view key) const;

    std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Array, Object> value_;
    std::shared_ptr<const std::string> source_;  // shared by every value of one parsed document
    std::string path_;
};

template <typename T>
T Json::get() const {
    if constexpr (std::same_as<T, Json>) {
        return *this;
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
        for (const Json& item : asArray()) out.push_back(item.get<typename T::value_type>());
        return out;
    }
}

}  // namespace skynnet
