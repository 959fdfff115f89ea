// openmetrics_text.cpp - the OpenMetrics text format.
#include "ctld/metrics/openmetrics_text.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

namespace drover::ctld {

namespace {

// The length of the valid UTF-8 sequence at s[i], or 0 when the bytes there are not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xe  ? 3
                    : (c >> 3) == 0x1e ? 4
                                       : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
    return n;
}

// A label value as the format quotes it: backslash, double quote and newline escaped; bytes that
// are no UTF-8 (a user's free-text account) and other control characters become U+FFFD, so that
// no value a user chose can make the page unreadable.
std::string escaped(std::string_view v) {
    std::string out;
    for (std::size_t i = 0; i < v.size();) {
        const char c = v[i];
        const std::size_t n = utf8_length(v, i);
        if (c == '\\' || c == '"')
            out += '\\', out += c;
        else if (c == '\n')
            out += "\\n";
        else if (n == 0 || (n == 1 && (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)))
            out += "\xEF\xBF\xBD"; // U+FFFD for the byte
        else
            out.append(v.substr(i, n));
        i += n ? n : 1;
    }
    return out;
}

// The shortest text that reads back as v (counters of seconds keep every digit).
std::string number(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(int64_t(v));
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::string("NaN");
}

} // namespace

void OpenMetricsText::family(std::string_view name, std::string_view type, std::string_view help) {
    out_.append("# TYPE ").append(name).append(" ").append(type).append("\n");
    out_.append("# HELP ").append(name).append(" ").append(help).append("\n");
    sample_name_ = std::string(name) + (type == "counter" ? "_total" : "");
}

void OpenMetricsText::sample(const Labels &labels, double value) {
    out_ += sample_name_;
    if (!labels.empty()) {
        out_ += '{';
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if (i) out_ += ',';
            out_.append(labels[i].first).append("=\"").append(escaped(labels[i].second)) += '"';
        }
        out_ += '}';
    }
    out_.append(" ").append(number(value)).append("\n");
}

std::string OpenMetricsText::finish() {
    out_ += "# EOF\n";
    return std::move(out_);
}

} // namespace drover::ctld
