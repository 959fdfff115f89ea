// json_value.cpp - the strict JSON parser (recursive descent, depth-limited) and dump().
#include "common/json_value.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "common/json_writer.hpp"

namespace drover::json {

Value Value::boolean(bool b) {
    Value v;
    v.kind_ = Kind::boolean;
    v.bool_ = b;
    return v;
}

Value Value::number(double d, std::optional<int64_t> i) {
    Value v;
    v.kind_ = Kind::number;
    v.double_ = d;
    v.int_ = i;
    return v;
}

Value Value::string(std::string s) {
    Value v;
    v.kind_ = Kind::string;
    v.string_ = std::move(s);
    return v;
}

Value Value::array(Array items) {
    Value v;
    v.kind_ = Kind::array;
    v.items_ = std::move(items);
    return v;
}

Value Value::object(Object members) {
    Value v;
    v.kind_ = Kind::object;
    v.members_ = std::move(members);
    return v;
}

std::string_view Value::kind_name() const {
    switch (kind_) {
    case Kind::null:
        return "null";
    case Kind::boolean:
        return "boolean";
    case Kind::number:
        return "number";
    case Kind::string:
        return "string";
    case Kind::array:
        return "array";
    case Kind::object:
        return "object";
    }
    return "?";
}

namespace {

[[noreturn]] void wrong_kind(const Value &v, const char *accessor) {
    throw std::logic_error(std::string("json: ") + accessor + " on a " +
                           std::string(v.kind_name()));
}

} // namespace

bool Value::as_bool() const {
    if (kind_ != Kind::boolean) wrong_kind(*this, "as_bool()");
    return bool_;
}

double Value::as_double() const {
    if (kind_ != Kind::number) wrong_kind(*this, "as_double()");
    return double_;
}

const std::string &Value::as_string() const {
    if (kind_ != Kind::string) wrong_kind(*this, "as_string()");
    return string_;
}

const Array &Value::items() const {
    if (kind_ != Kind::array) wrong_kind(*this, "items()");
    return items_;
}

const Object &Value::members() const {
    if (kind_ != Kind::object) wrong_kind(*this, "members()");
    return members_;
}

const Value *Value::find(std::string_view key) const {
    if (kind_ != Kind::object) return nullptr;
    for (const auto &[k, v] : members_)
        if (k == key) return &v;
    return nullptr;
}

namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void append_utf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else {
        out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    }
}

// Length of the well-formed UTF-8 sequence at s[i] (no overlongs, no surrogates, at most
// U+10FFFF), or 0 when there is none.
std::size_t utf8_len(std::string_view s, std::size_t i) {
    auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = b(i);
    if (c < 0x80) return 1;
    std::size_t n = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    uint32_t cp = c & (0x7f >> n);
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (b(i + k) & 0x3f);
    }
    static constexpr uint32_t min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return n;
}

class Parser {
  public:
    Parser(std::string_view text, std::size_t max_depth) : s_(text), max_depth_(max_depth) {}

    Value document() {
        Value v = value(0);
        skip_ws();
        if (pos_ != s_.size()) fail("trailing characters");
        return v;
    }

  private:
    [[noreturn]] void fail(const std::string &what) const { throw ParseError(what, pos_); }
    [[noreturn]] void fail_at(const std::string &what, std::size_t at) const {
        throw ParseError(what, at);
    }

    bool at_end() const { return pos_ >= s_.size(); }
    char peek() const { return at_end() ? '\0' : s_[pos_]; }

    // RFC 8259 whitespace: space, tab, line feed, carriage return; nothing else.
    void skip_ws() {
        while (!at_end() &&
               (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
            ++pos_;
    }

    Value value(std::size_t depth);
    Value literal();
    Value number();
    std::string string();
    uint32_t hex4();
    uint32_t escaped_code_point();
    void escape(std::string &out);
    Value array(std::size_t depth);
    Value object(std::size_t depth);
    void enter(std::size_t depth) const;

    std::string_view s_;
    std::size_t max_depth_;
    std::size_t pos_ = 0;
};

Value Parser::value(std::size_t depth) {
    skip_ws();
    switch (peek()) {
    case '{':
        return object(depth);
    case '[':
        return array(depth);
    case '"':
        return Value::string(string());
    case 't':
    case 'f':
    case 'n':
        return literal();
    default:
        if (peek() == '-' || is_digit(peek())) return number();
        fail("expected a value");
    }
}

Value Parser::literal() {
    for (std::string_view word : {"true", "false", "null"}) {
        if (s_.substr(pos_, word.size()) != word) continue;
        pos_ += word.size();
        return word == "null" ? Value() : Value::boolean(word == "true");
    }
    fail("expected a value");
}

// Where a validated literal's first significant digit lies, as a power of ten (1 for "1.5",
// -2 for "0.005", 3 for "1e2"): positive means at least one. The exponent saturates, so a huge
// one cannot overflow.
long long decimal_magnitude(std::string_view lit) {
    std::size_t i = lit[0] == '-' ? 1 : 0;
    long long mag = 0;
    if (lit[i] != '0') {
        while (i < lit.size() && is_digit(lit[i])) ++i, ++mag;
    } else if (++i < lit.size() && lit[i] == '.') {
        for (++i; i < lit.size() && lit[i] == '0'; ++i) --mag;
    }
    std::size_t e = lit.find_first_of("eE");
    if (e == std::string_view::npos) return mag;
    bool negative = lit[e + 1] == '-';
    long long exp = 0;
    for (std::size_t k = e + 1; k < lit.size(); ++k)
        if (is_digit(lit[k])) exp = std::min(exp * 10 + (lit[k] - '0'), 1'000'000'000LL);
    return negative ? mag - exp : mag + exp;
}

// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, checked here; the conversion is from_chars's
// (locale independent). Integers keep their exact int64 when they fit. A literal too big for a
// double is refused; one too small for it reads as zero.
Value Parser::number() {
    std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (!is_digit(peek())) fail("expected a digit");
    if (peek() == '0' && pos_ + 1 < s_.size() && is_digit(s_[pos_ + 1]))
        fail("leading zero in number");
    while (is_digit(peek())) ++pos_;
    bool integer = true;
    if (peek() == '.') {
        integer = false;
        ++pos_;
        if (!is_digit(peek())) fail("expected a digit after '.'");
        while (is_digit(peek())) ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
        integer = false;
        ++pos_;
        if (peek() == '+' || peek() == '-') ++pos_;
        if (!is_digit(peek())) fail("expected a digit in exponent");
        while (is_digit(peek())) ++pos_;
    }
    std::string_view lit = s_.substr(start, pos_ - start);
    const char *last = lit.data() + lit.size();
    double d = 0;
    auto [p, ec] = std::from_chars(lit.data(), last, d);
    if (ec == std::errc::result_out_of_range) {
        if (decimal_magnitude(lit) > 0) fail_at("number out of range", start);
        d = lit[0] == '-' ? -0.0 : 0.0;
    } else if (ec != std::errc() || p != last) {
        fail_at("invalid number", start);
    }
    std::optional<int64_t> i;
    int64_t n = 0;
    if (integer && std::from_chars(lit.data(), last, n).ec == std::errc()) i = n;
    return Value::number(d, i);
}

uint32_t Parser::hex4() {
    uint32_t cp = 0;
    for (int k = 0; k < 4; ++k) {
        int h = pos_ < s_.size() ? hex_value(s_[pos_]) : -1;
        if (h < 0) fail("expected four hex digits after \\u");
        cp = cp << 4 | static_cast<uint32_t>(h);
        ++pos_;
    }
    return cp;
}

// The code point of a \uXXXX escape (pos_ just past the 'u'), joining a surrogate pair into one;
// a lone or reversed surrogate is refused at its backslash.
uint32_t Parser::escaped_code_point() {
    std::size_t at = pos_ - 2;
    uint32_t hi = hex4();
    if (hi >= 0xdc00 && hi <= 0xdfff) fail_at("lone low surrogate", at);
    if (hi < 0xd800 || hi > 0xdbff) return hi;
    if (s_.substr(pos_, 2) != "\\u") fail_at("lone high surrogate", at);
    pos_ += 2;
    uint32_t lo = hex4();
    if (lo < 0xdc00 || lo > 0xdfff) fail_at("lone high surrogate", at);
    return 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
}

// One escape sequence, pos_ on its backslash.
void Parser::escape(std::string &out) {
    std::size_t at = pos_;
    ++pos_;
    char c = peek();
    ++pos_;
    switch (c) {
    case '"':
        out.push_back('"');
        return;
    case '\\':
        out.push_back('\\');
        return;
    case '/':
        out.push_back('/');
        return;
    case 'b':
        out.push_back('\b');
        return;
    case 'f':
        out.push_back('\f');
        return;
    case 'n':
        out.push_back('\n');
        return;
    case 'r':
        out.push_back('\r');
        return;
    case 't':
        out.push_back('\t');
        return;
    case 'u':
        append_utf8(out, escaped_code_point());
        return;
    default:
        fail_at("invalid escape", at);
    }
}

// A string, pos_ on its opening quote. Raw bytes must be well-formed UTF-8 and not control
// characters (RFC 8259 section 7 and 8.1).
std::string Parser::string() {
    std::size_t open = pos_++;
    std::string out;
    while (true) {
        if (at_end()) fail_at("unterminated string", open);
        unsigned char c = static_cast<unsigned char>(s_[pos_]);
        if (c == '"') break;
        if (c == '\\') {
            escape(out);
            continue;
        }
        if (c < 0x20) fail("control character in string");
        std::size_t n = utf8_len(s_, pos_);
        if (n == 0) fail("invalid UTF-8 in string");
        out.append(s_.substr(pos_, n));
        pos_ += n;
    }
    ++pos_;
    return out;
}

void Parser::enter(std::size_t depth) const {
    if (depth >= max_depth_) fail("nesting deeper than " + std::to_string(max_depth_));
}

Value Parser::array(std::size_t depth) {
    enter(depth);
    ++pos_;
    Array items;
    skip_ws();
    if (peek() == ']') {
        ++pos_;
        return Value::array(std::move(items));
    }
    while (true) {
        items.push_back(value(depth + 1));
        skip_ws();
        if (peek() == ']') break;
        if (peek() != ',') fail("expected ',' or ']'");
        ++pos_;
    }
    ++pos_;
    return Value::array(std::move(items));
}

Value Parser::object(std::size_t depth) {
    enter(depth);
    ++pos_;
    Object members;
    skip_ws();
    if (peek() == '}') {
        ++pos_;
        return Value::object(std::move(members));
    }
    while (true) {
        skip_ws();
        if (peek() != '"')
            fail(members.empty() ? "expected a string key or '}'" : "expected a string key");
        std::string key = string();
        skip_ws();
        if (peek() != ':') fail("expected ':'");
        ++pos_;
        members.emplace_back(std::move(key), value(depth + 1));
        skip_ws();
        if (peek() == '}') break;
        if (peek() != ',') fail("expected ',' or '}'");
        ++pos_;
    }
    ++pos_;
    return Value::object(std::move(members));
}

void dump_to(std::string &out, const Value &v);

void dump_number(std::string &out, const Value &v) {
    char buf[32];
    std::to_chars_result r;
    auto i = v.as_int();
    if (i && !(*i == 0 && std::signbit(v.as_double()))) // "-0" stays "-0"
        r = std::to_chars(buf, buf + sizeof buf, *i);
    else if (std::isfinite(v.as_double()))
        r = std::to_chars(buf, buf + sizeof buf, v.as_double()); // shortest that reads back
    else
        return void(out += "null");
    out.append(buf, r.ptr);
}

void dump_to(std::string &out, const Value &v) {
    switch (v.kind()) {
    case Value::Kind::null:
        out += "null";
        return;
    case Value::Kind::boolean:
        out += v.as_bool() ? "true" : "false";
        return;
    case Value::Kind::number:
        dump_number(out, v);
        return;
    case Value::Kind::string:
        out += '"' + json_escape(v.as_string()) + '"';
        return;
    case Value::Kind::array:
        out += '[';
        for (std::size_t k = 0; k < v.items().size(); ++k) {
            if (k) out += ',';
            dump_to(out, v.items()[k]);
        }
        out += ']';
        return;
    case Value::Kind::object:
        out += '{';
        for (std::size_t k = 0; k < v.members().size(); ++k) {
            if (k) out += ',';
            out += '"' + json_escape(v.members()[k].first) + "\":";
            dump_to(out, v.members()[k].second);
        }
        out += '}';
        return;
    }
}

} // namespace

Value parse(std::string_view text, std::size_t max_depth) {
    return Parser(text, max_depth).document();
}

std::string dump(const Value &v) {
    std::string out;
    dump_to(out, v);
    return out;
}

} // namespace drover::json
