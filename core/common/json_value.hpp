// json_value.hpp - a strict RFC 8259 JSON parser into a small value tree (objects keep their
// member order), and a compact serializer for it. For JSON that comes from outside (JWT headers
// and payloads): every refusal names what was expected and the byte offset where.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace drover::json {

// Text that is not JSON. what() is "<what was expected or wrong> at byte <offset>".
class ParseError : public std::runtime_error {
  public:
    ParseError(const std::string &what, std::size_t at)
        : std::runtime_error(what + " at byte " + std::to_string(at)), offset(at) {}
    std::size_t offset; // byte offset into the parsed text
};

class Value;
using Array = std::vector<Value>;
using Object = std::vector<std::pair<std::string, Value>>; // in document order, duplicates kept

class Value {
  public:
    enum class Kind { null, boolean, number, string, array, object };

    Value() = default; // null
    static Value boolean(bool b);
    // A number: the double, and the integer when the literal was one that fits in int64.
    static Value number(double d, std::optional<int64_t> i = std::nullopt);
    static Value string(std::string s);
    static Value array(Array items);
    static Value object(Object members);

    Kind kind() const { return kind_; }
    // "null", "boolean", "number", "string", "array" or "object", for error messages.
    std::string_view kind_name() const;
    bool is_null() const { return kind_ == Kind::null; }
    bool is_bool() const { return kind_ == Kind::boolean; }
    bool is_number() const { return kind_ == Kind::number; }
    bool is_string() const { return kind_ == Kind::string; }
    bool is_array() const { return kind_ == Kind::array; }
    bool is_object() const { return kind_ == Kind::object; }

    // The accessors below throw std::logic_error when the value is of another kind: check the
    // kind first. as_int() is the exception: nullopt for a non-number, a number with a fraction
    // or exponent, or an integer outside int64.
    bool as_bool() const;
    double as_double() const;
    std::optional<int64_t> as_int() const { return kind_ == Kind::number ? int_ : std::nullopt; }
    const std::string &as_string() const;
    const Array &items() const;
    const Object &members() const;
    // The first member named key; nullptr when there is none or this is not an object.
    const Value *find(std::string_view key) const;

    bool operator==(const Value &) const = default;

  private:
    Kind kind_ = Kind::null;
    bool bool_ = false;
    double double_ = 0;
    std::optional<int64_t> int_;
    std::string string_;
    Array items_;
    Object members_;
};

// Parses one JSON document (surrounding whitespace allowed). Containers nested deeper than
// max_depth are refused, which bounds the parser's recursion. Throws ParseError.
Value parse(std::string_view text, std::size_t max_depth = 64);

// v as compact JSON (no whitespace, members in order, strings escaped with json_escape, integers
// as integers, other numbers in their shortest round-trip form, a non-finite number as null).
std::string dump(const Value &v);

} // namespace drover::json
