#include "io/json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "core/error.h"
#include "io/utf8.h"

namespace skynnet {

// ---- construction and access -------------------------------------------------------------

Json Json::object(std::initializer_list<Member> members) {
    Json j;
    j.value_ = Object(members);
    return j;
}

Json::Type Json::type() const {
    switch (value_.index()) {
    case 0: return Type::Null;
    case 1: return Type::Bool;
    case 2:
    case 3: return Type::Number;
    case 4: return Type::String;
    case 5: return Type::Array;
    default: return Type::Object;
    }
}

namespace {

const char* typeName(Json::Type t) {
    switch (t) {
    case Json::Type::Null: return "null";
    case Json::Type::Bool: return "a boolean";
    case Json::Type::Number: return "a number";
    case Json::Type::String: return "a string";
    case Json::Type::Array: return "an array";
    case Json::Type::Object: return "an object";
    }
    return "null";
}

}  // namespace

std::string Json::where() const {
    std::string w = source_ && !source_->empty() ? *source_ + ": " : std::string();
    return w + (path_.empty() ? std::string("the top-level value") : path_);
}

void Json::fail(const std::string& problem) const { throw Error(where() + " " + problem); }

void Json::typeError(const char* expected) const {
    fail(std::string("must be ") + expected + ", not " + typeName(type()));
}

std::string Json::childPath(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void Json::setOrigin(std::shared_ptr<const std::string> source, std::string path) {
    source_ = std::move(source);
    path_ = std::move(path);
}

bool Json::asBool() const {
    if (!isBool()) typeError("true or false");
    return std::get<bool>(value_);
}

double Json::asDouble() const {
    if (const auto* n = std::get_if<std::int64_t>(&value_)) return double(*n);
    if (const auto* d = std::get_if<double>(&value_)) return *d;
    typeError("a number");
}

std::int64_t Json::asInt64() const {
    if (const auto* n = std::get_if<std::int64_t>(&value_)) return *n;
    if (const auto* d = std::get_if<double>(&value_)) {
        // 2^63 itself is not representable as int64, hence the strict upper bound.
        if (*d == std::trunc(*d) && *d >= -9223372036854775808.0 && *d < 9223372036854775808.0)
            return std::int64_t(*d);
        fail("must be a whole number, not " + dump());
    }
    typeError("a whole number");
}

int Json::asInt() const { return get<int>(); }

const std::string& Json::asString() const {
    if (!isString()) typeError("a string");
    return std::get<std::string>(value_);
}

const Json::Array& Json::asArray() const {
    if (!isArray()) typeError("an array");
    return std::get<Array>(value_);
}

const Json::Object& Json::asObject() const {
    if (!isObject()) typeError("an object");
    return std::get<Object>(value_);
}

std::size_t Json::size() const {
    if (isArray()) return std::get<Array>(value_).size();
    if (isObject()) return std::get<Object>(value_).size();
    typeError("an array or an object");
}

const Json* Json::find(std::string_view key) const {
    for (const auto& [k, v] : asObject())
        if (k == key) return &v;
    return nullptr;
}

bool Json::contains(std::string_view key) const { return find(key) != nullptr; }

const Json& Json::at(std::string_view key) const {
    if (const Json* j = find(key)) return *j;
    std::string w = source_ && !source_->empty() ? *source_ + ": " : std::string();
    throw Error(w + "missing field '" + childPath(key) + "'");
}

const Json& Json::at(std::size_t index) const {
    const Array& a = asArray();
    if (index >= a.size())
        fail("has no element [" + std::to_string(index) + "] (it has " + std::to_string(a.size()) + ")");
    return a[index];
}

Json& Json::operator[](std::string_view key) {
    if (isNull()) value_ = Object{};
    if (!isObject()) typeError("an object");
    auto& members = std::get<Object>(value_);
    for (auto& [k, v] : members)
        if (k == key) return v;
    members.emplace_back(std::string(key), Json());
    Json& added = members.back().second;
    added.setOrigin(source_, childPath(key));
    return added;
}

Json& Json::push_back(Json item) {
    if (isNull()) value_ = Array{};
    if (!isArray()) typeError("an array");
    auto& items = std::get<Array>(value_);
    items.push_back(std::move(item));
    return items.back();
}

bool Json::erase(std::string_view key) {
    if (!isObject()) typeError("an object");
    auto& members = std::get<Object>(value_);
    const auto it = std::find_if(members.begin(), members.end(), [&](const Member& m) { return m.first == key; });
    if (it == members.end()) return false;
    members.erase(it);
    return true;
}

bool Json::operator==(const Json& other) const {
    if (isNumber() && other.isNumber()) {
        if (isInteger() && other.isInteger()) return asInt64() == other.asInt64();
        return asDouble() == other.asDouble();
    }
    if (value_.index() != other.value_.index()) return false;
    if (isObject()) {
        const Object& a = asObject();
        if (a.size() != other.size()) return false;
        for (const auto& [k, v] : a) {
            const Json* o = other.find(k);
            if (!o || !(v == *o)) return false;
        }
        return true;
    }
    if (isArray()) return asArray() == other.asArray();
    return value_ == other.value_;
}

std::size_t utf8SequenceLength(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    if (c < 0x80) return 1;
    std::size_t n;
    unsigned lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;  // no UTF-16 surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else return 0;
    if (i + n > s.size()) return 0;
    if (b(i + 1) < lo || b(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
    return n;
}

// ---- writing -----------------------------------------------------------------------------

namespace {

void writeString(std::string& out, std::string_view s) {
    static const char* hex = "0123456789abcdef";
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        switch (c) {
        case '"': out += "\\\""; ++i; continue;
        case '\\': out += "\\\\"; ++i; continue;
        case '\b': out += "\\b"; ++i; continue;
        case '\f': out += "\\f"; ++i; continue;
        case '\n': out += "\\n"; ++i; continue;
        case '\r': out += "\\r"; ++i; continue;
        case '\t': out += "\\t"; ++i; continue;
        default: break;
        }
        if (c < 0x20) {
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
            ++i;
        } else if (const std::size_t n = utf8SequenceLength(s, i)) {
            out.append(s.substr(i, n));
            i += n;
        } else {
            out += "\xEF\xBF\xBD";  // U+FFFD: the output must stay valid UTF-8 so it parses back
            ++i;
        }
    }
    out += '"';
}

void writeNumber(std::string& out, double d) {
    if (!std::isfinite(d)) {
        out += "null";
        return;
    }
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, d);  // shortest form that round-trips
    out.append(buf, r.ptr);
}

bool isPlain(const Json& j) { return !j.isArray() && !j.isObject(); }

void write(std::string& out, const Json& j, int indent, int level) {
    const auto newline = [&](int lvl) {
        out += '\n';
        out.append(std::size_t(indent) * std::size_t(lvl), ' ');
    };
    switch (j.type()) {
    case Json::Type::Null: out += "null"; return;
    case Json::Type::Bool: out += j.asBool() ? "true" : "false"; return;
    case Json::Type::Number:
        if (j.isInteger()) out += std::to_string(j.asInt64());
        else writeNumber(out, j.asDouble());
        return;
    case Json::Type::String: writeString(out, j.asString()); return;
    case Json::Type::Array: {
        const auto& a = j.asArray();
        // Arrays of plain values (weights summaries, names, shapes) stay on one line.
        const bool inlined = indent < 0 || std::all_of(a.begin(), a.end(), isPlain);
        out += '[';
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (i) out += indent >= 0 && inlined ? ", " : ",";
            if (!inlined) newline(level + 1);
            write(out, a[i], indent, level + 1);
        }
        if (!inlined && !a.empty()) newline(level);
        out += ']';
        return;
    }
    case Json::Type::Object: {
        const auto& o = j.asObject();
        out += '{';
        for (std::size_t i = 0; i < o.size(); ++i) {
            if (i) out += ',';
            if (indent >= 0) newline(level + 1);
            writeString(out, o[i].first);
            out += indent >= 0 ? ": " : ":";
            write(out, o[i].second, indent, level + 1);
        }
        if (indent >= 0 && !o.empty()) newline(level);
        out += '}';
        return;
    }
    }
}

}  // namespace

std::string Json::dump(int indent) const {
    std::string out;
    write(out, *this, indent, 0);
    return out;
}

}  // namespace skynnet
