// yaml_writer.cpp - a JSON document read into a small tree and written out as block YAML.
#include "cli/yaml_writer.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

struct Node {
    enum class Kind { plain, string, object, array } kind = Kind::plain;
    std::string text;              // a plain scalar as written, or the decoded string
    std::vector<std::string> keys; // an object's keys, one per item
    std::vector<Node> items;       // an object's values, or an array's elements
};

void append_utf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(char(cp));
    } else if (cp < 0x800) {
        out.push_back(char(0xc0 | (cp >> 6)));
        out.push_back(char(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        out.push_back(char(0xe0 | (cp >> 12)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(char(0x80 | (cp & 0x3f)));
    } else {
        out.push_back(char(0xf0 | (cp >> 18)));
        out.push_back(char(0x80 | ((cp >> 12) & 0x3f)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(char(0x80 | (cp & 0x3f)));
    }
}

// A recursive-descent reader for the JSON the commands write.
class JsonReader {
  public:
    explicit JsonReader(std::string_view s) : s_(s) {}

    Node document() {
        Node n = value();
        skip_space();
        if (pos_ != s_.size()) fail();
        return n;
    }

  private:
    [[noreturn]] void fail() const {
        throw ParseError("invalid JSON at offset " + std::to_string(pos_));
    }
    void skip_space() {
        while (pos_ < s_.size() &&
               (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r'))
            ++pos_;
    }
    bool eat(char c) {
        skip_space();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!eat(c)) fail();
    }

    Node value() {
        skip_space();
        if (pos_ >= s_.size()) fail();
        Node n;
        char c = s_[pos_];
        if (c == '{' || c == '[') {
            n.kind = c == '{' ? Node::Kind::object : Node::Kind::array;
            container(n, c == '{' ? '}' : ']');
        } else if (c == '"') {
            n.kind = Node::Kind::string;
            n.text = string_literal();
        } else {
            n.text = plain();
        }
        return n;
    }

    void container(Node &n, char close) {
        ++pos_;
        if (eat(close)) return;
        do {
            if (n.kind == Node::Kind::object) {
                skip_space();
                n.keys.push_back(string_literal());
                expect(':');
            }
            n.items.push_back(value());
        } while (eat(','));
        expect(close);
    }

    // true, false, null or a number.
    std::string plain() {
        std::size_t start = pos_;
        while (pos_ < s_.size() && std::string_view("+-.0123456789eEtruefalsn").find(s_[pos_]) !=
                                       std::string_view::npos)
            ++pos_;
        std::string_view word = s_.substr(start, pos_ - start);
        bool number = !word.empty() && (word[0] == '-' || (word[0] >= '0' && word[0] <= '9'));
        if (!number && word != "true" && word != "false" && word != "null") fail();
        return std::string(word);
    }

    uint32_t hex4() {
        if (pos_ + 4 > s_.size()) fail();
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) {
            char c = s_[pos_++];
            int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
            if (d < 0) fail();
            v = v * 16 + uint32_t(d);
        }
        return v;
    }

    // \uXXXX, with a following \uXXXX when it is the first half of a surrogate pair.
    uint32_t unicode_escape() {
        uint32_t cp = hex4();
        if (cp >= 0xd800 && cp < 0xdc00 && s_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            uint32_t low = hex4();
            if (low < 0xdc00 || low > 0xdfff) fail();
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        }
        return cp;
    }

    std::string string_literal() {
        if (pos_ >= s_.size() || s_[pos_] != '"') fail();
        ++pos_;
        std::string out;
        while (pos_ < s_.size() && s_[pos_] != '"') {
            char c = s_[pos_++];
            if (c != '\\') {
                out.push_back(c);
                continue;
            }
            if (pos_ >= s_.size()) fail();
            char e = s_[pos_++];
            constexpr std::string_view kFrom = "\"\\/bfnrt", kTo = "\"\\/\b\f\n\r\t";
            if (std::size_t k = kFrom.find(e); k != std::string_view::npos)
                out.push_back(kTo[k]);
            else if (e == 'u')
                append_utf8(out, unicode_escape());
            else
                fail();
        }
        if (pos_ >= s_.size()) fail();
        ++pos_;
        return out;
    }

    std::string_view s_;
    std::size_t pos_ = 0;
};

// Words YAML 1.1 resolves to null, booleans or special floats, in any case.
bool reserved_word(std::string_view s) {
    constexpr std::array<std::string_view, 16> kWords = {
        "null", "~", "true", "false", "yes",  "no",    "on",    "off",
        "y",    "n", "=",    "<<",    ".inf", "-.inf", "+.inf", ".nan"};
    std::string lower = to_lower(s);
    for (auto w : kWords)
        if (lower == w) return true;
    return false;
}

// Whether YAML could read s as a number, a date or a sexagesimal ("12", "-3.5", "0x1f", "1_000",
// "2024-01-02", "1:30"): a digit first (after a sign or dot), and nothing but what such forms use.
bool number_like(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == '.')) ++i;
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
    constexpr std::string_view kNumberChars = "0123456789+-._:eExXoObBabcdefABCDEFT ";
    for (char c : s)
        if (kNumberChars.find(c) == std::string_view::npos) return false;
    return true;
}

bool control_chars(std::string_view s) {
    for (char c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
    return false;
}

std::string double_quoted(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(static_cast<unsigned char>(c)));
                out += buf;
            } else {
                out.push_back(c);
            }
        }
    }
    return out + "\"";
}

std::string yaml_string(std::string_view s) {
    if (!yaml_needs_quotes(s)) return std::string(s);
    if (control_chars(s)) return double_quoted(s);
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out.push_back('\'');
        out.push_back(c);
    }
    return out + "'";
}

// Scalars and empty containers go on the line of their key or dash.
bool inline_value(const Node &n) {
    return n.kind == Node::Kind::plain || n.kind == Node::Kind::string || n.items.empty();
}

std::string inline_text(const Node &n) {
    switch (n.kind) {
    case Node::Kind::plain:
        return n.text;
    case Node::Kind::string:
        return yaml_string(n.text);
    case Node::Kind::object:
        return "{}";
    case Node::Kind::array:
        return "[]";
    }
    return "";
}

// Writes a non-empty object or array at indent; with first_inline its first line continues the
// line already begun (after "- ").
void write_block(const Node &n, std::size_t indent, bool first_inline, std::string &out) {
    for (std::size_t i = 0; i < n.items.size(); ++i) {
        if (i > 0 || !first_inline) out.append(indent, ' ');
        const Node &v = n.items[i];
        if (n.kind == Node::Kind::object)
            out += yaml_string(n.keys[i]) + ":";
        else
            out += "-";
        if (inline_value(v)) {
            out += " " + inline_text(v) + "\n";
        } else if (n.kind == Node::Kind::array) {
            out += " ";
            write_block(v, indent + 2, true, out);
        } else {
            out += "\n";
            // libyaml writes a sequence under a key at the key's own indent.
            write_block(v, v.kind == Node::Kind::array ? indent : indent + 2, false, out);
        }
    }
}

} // namespace

bool yaml_needs_quotes(std::string_view s) {
    if (s.empty() || s.front() == ' ' || s.back() == ' ') return true;
    // Indicators that start something other than a plain scalar.
    if (std::string_view("-?:,[]{}#&*!|>'\"%@`").find(s.front()) != std::string_view::npos)
        return true;
    // ": " starts a mapping and " #" a comment; any ':' or '#' is quoted to be safe.
    for (char c : s)
        if (c == ':' || c == '#') return true;
    return control_chars(s) || reserved_word(s) || number_like(s);
}

std::string yaml_from_json(std::string_view json) {
    Node root = JsonReader(json).document();
    std::string out = "%YAML 1.1\n---";
    if (inline_value(root)) {
        out += " " + inline_text(root) + "\n";
    } else {
        out += "\n";
        write_block(root, 0, false, out);
    }
    return out + "...\n";
}

std::string json_or_yaml(const std::string &json, bool yaml) {
    return yaml ? yaml_from_json(json) : json;
}

} // namespace drover::cli
