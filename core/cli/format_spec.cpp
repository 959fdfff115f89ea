// format_spec.cpp - parsing -o/-O format strings and rendering lines from them.
#include "cli/format_spec.hpp"

#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_alpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
} // namespace

FormatSpec parse_percent_format(std::string_view fmt) {
    FormatSpec spec;
    std::string *text = &spec.prefix; // where literal text goes
    std::size_t i = 0;
    while (i < fmt.size()) {
        char c = fmt[i];
        if (c != '%') {
            text->push_back(c);
            ++i;
            continue;
        }
        if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
            text->push_back('%');
            i += 2;
            continue;
        }
        std::size_t start = i++;
        FieldSpec f;
        if (i < fmt.size() && fmt[i] == '.') {
            f.right = true;
            ++i;
        }
        if (i < fmt.size() && fmt[i] == '#') {
            f.hash = true;
            ++i;
        }
        int width = 0;
        while (i < fmt.size() && is_digit(fmt[i])) {
            if (width < 100000) width = width * 10 + (fmt[i] - '0');
            ++i;
        }
        if (i >= fmt.size() || !is_alpha(fmt[i]))
            throw ParseError("Invalid format specification: " + std::string(fmt.substr(start)));
        f.type = fmt[i++];
        f.width = width;
        spec.fields.push_back(std::move(f));
        text = &spec.fields.back().suffix;
    }
    return spec;
}

FormatSpec parse_long_format(std::string_view fmt, int default_width) {
    FormatSpec spec;
    for (const auto &item : split(fmt, ',')) {
        FieldSpec f;
        std::size_t colon = item.find(':');
        f.name = std::string(trim(std::string_view(item).substr(0, colon)));
        if (f.name.empty()) throw ParseError("Invalid format specification: " + item);
        f.width = default_width;
        if (colon != std::string::npos) {
            std::string_view rest = std::string_view(item).substr(colon + 1);
            std::size_t k = 0;
            if (k < rest.size() && rest[k] == '.') {
                f.right = true;
                ++k;
            }
            std::size_t digits = k;
            int width = 0;
            while (k < rest.size() && is_digit(rest[k])) {
                if (width < 100000) width = width * 10 + (rest[k] - '0');
                ++k;
            }
            if (k > digits)
                f.width = width;
            else if (f.right)
                throw ParseError("Invalid format specification: " + item);
            f.suffix = std::string(rest.substr(k));
        }
        spec.fields.push_back(std::move(f));
    }
    if (spec.fields.empty()) throw ParseError("Invalid format specification: empty");
    return spec;
}

std::string render_line(const FormatSpec &spec,
                        const std::function<FieldValue(const FieldSpec &)> &value_of) {
    std::string line = spec.prefix;
    for (const auto &f : spec.fields) {
        FieldValue v = value_of(f);
        line += fit(v.text, f.width, f.right, v.cut);
        line += f.suffix;
    }
    return line;
}

} // namespace drover::cli
