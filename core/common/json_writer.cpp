// json_writer.cpp - JSON escaping and an indenting writer.
#include "common/json_writer.hpp"

#include <cmath>

#include <cstdio>

namespace drover {

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not one.
std::size_t utf8_len(std::string_view s, std::size_t i) {
    auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = b(i);
    std::size_t n;
    uint32_t cp;
    if (c < 0x80) return 1;
    if ((c & 0xe0) == 0xc0) {
        n = 2;
        cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3;
        cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4;
        cp = c & 0x07;
    } else
        return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (b(i + k) & 0x3f);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
        cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

} // namespace

std::string json_escape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        switch (c) {
        case '"':
            out += "\\\"";
            ++i;
            continue;
        case '\\':
            out += "\\\\";
            ++i;
            continue;
        case '\n':
            out += "\\n";
            ++i;
            continue;
        case '\r':
            out += "\\r";
            ++i;
            continue;
        case '\t':
            out += "\\t";
            ++i;
            continue;
        case '\b':
            out += "\\b";
            ++i;
            continue;
        case '\f':
            out += "\\f";
            ++i;
            continue;
        default:
            break;
        }
        if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
            ++i;
            continue;
        }
        std::size_t n = utf8_len(s, i);
        if (n == 0) {
            out += "\\ufffd";
            ++i;
            continue;
        }
        out.append(s.substr(i, n));
        i += n;
    }
    return out;
}

void JsonWriter::newline() {
    out_.push_back('\n');
    out_.append(has_items_.size() * 2, ' ');
}

void JsonWriter::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (!has_items_.empty()) {
        if (has_items_.back()) out_.push_back(',');
        has_items_.back() = true;
        newline();
    }
}

JsonWriter &JsonWriter::open(char bracket) {
    before_value();
    out_.push_back(bracket);
    has_items_.push_back(false);
    return *this;
}

JsonWriter &JsonWriter::close(char bracket) {
    bool items = has_items_.back();
    has_items_.pop_back();
    if (items) newline();
    out_.push_back(bracket);
    return *this;
}

JsonWriter &JsonWriter::key(std::string_view k) {
    before_value();
    out_.push_back('"');
    out_ += json_escape(k);
    out_ += "\": ";
    after_key_ = true;
    return *this;
}

JsonWriter &JsonWriter::str(std::string_view v) {
    before_value();
    out_.push_back('"');
    out_ += json_escape(v);
    out_.push_back('"');
    return *this;
}

JsonWriter &JsonWriter::num(int64_t v) {
    before_value();
    char buf[24];
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    out_ += buf;
    return *this;
}

JsonWriter &JsonWriter::unum(uint64_t v) {
    before_value();
    char buf[24];
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
    out_ += buf;
    return *this;
}

JsonWriter &JsonWriter::real(double v) {
    if (!std::isfinite(v)) return null(); // JSON has no infinity or NaN
    before_value();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    out_ += buf;
    return *this;
}

JsonWriter &JsonWriter::boolean(bool v) {
    before_value();
    out_ += v ? "true" : "false";
    return *this;
}

JsonWriter &JsonWriter::null() {
    before_value();
    out_ += "null";
    return *this;
}

JsonWriter &JsonWriter::kv_number_obj(std::string_view k, uint64_t v, bool set, bool infinite) {
    key(k).begin_object();
    kv_bool("set", set);
    kv_bool("infinite", infinite);
    kv_unum("number", set && !infinite ? v : 0);
    return end_object();
}

JsonWriter &JsonWriter::kv_real_obj(std::string_view k, double v) {
    key(k).begin_object();
    kv_bool("set", true);
    kv_bool("infinite", false);
    key("number").real(v);
    return end_object();
}

JsonWriter &JsonWriter::kv_str_list(std::string_view k, const std::vector<std::string> &v) {
    key(k).begin_array();
    for (const auto &s : v) str(s);
    return end_array();
}

std::string JsonWriter::finish() {
    std::string out = std::move(out_);
    out.push_back('\n');
    out_.clear();
    has_items_.clear();
    after_key_ = false;
    return out;
}

} // namespace drover
