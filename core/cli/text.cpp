// text.cpp - string helpers, strict number parsing and column fitting for the commands.
#include "cli/text.hpp"

#include <cstdio>
#include <unistd.h>

namespace drover::cli {

namespace {
char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
char upper(char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}
bool space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

void write_fd(int fd, std::string_view s) {
    while (!s.empty()) {
        ssize_t n = ::write(fd, s.data(), s.size());
        if (n <= 0) return;
        s.remove_prefix(static_cast<std::size_t>(n));
    }
}
} // namespace

std::vector<std::string> split(std::string_view s, char sep, bool keep_empty) {
    std::vector<std::string> out;
    while (true) {
        std::size_t p = s.find(sep);
        std::string_view piece = s.substr(0, p);
        if (keep_empty || !piece.empty()) out.emplace_back(piece);
        if (p == std::string_view::npos) break;
        s.remove_prefix(p + 1);
    }
    return out;
}

std::string to_lower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = lower(c);
    return out;
}

std::string to_upper(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = upper(c);
    return out;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

bool istarts_with(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

bool abbreviates(std::string_view word, std::string_view name, std::size_t min) {
    return word.size() >= min && word.size() <= name.size() && istarts_with(name, word);
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

std::optional<uint64_t> parse_u64(std::string_view s) {
    if (s.empty() || s.size() > 20) return std::nullopt;
    uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        uint64_t d = static_cast<uint64_t>(c - '0');
        if (v > (UINT64_MAX - d) / 10) return std::nullopt;
        v = v * 10 + d;
    }
    return v;
}

std::optional<uint32_t> parse_u32(std::string_view s) {
    auto v = parse_u64(s);
    if (!v || *v > UINT32_MAX) return std::nullopt;
    return static_cast<uint32_t>(*v);
}

std::string str_u(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
    return buf;
}

std::string str_i(int64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    return buf;
}

std::string fit(std::string_view s, int width, bool right, bool cut) {
    if (width <= 0) return std::string(s);
    std::size_t w = static_cast<std::size_t>(width);
    if (s.size() >= w) return std::string(cut ? s.substr(0, w) : s);
    std::string pad(w - s.size(), ' ');
    return right ? pad + std::string(s) : std::string(s) + pad;
}

std::string fit_sacct(std::string_view s, int width) {
    bool left = width < 0;
    std::size_t w = static_cast<std::size_t>(left ? -width : width);
    std::string v(s);
    if (v.size() > w) {
        v.resize(w);
        if (w > 0) v[w - 1] = '+';
    }
    std::string pad(w - v.size(), ' ');
    return (left ? v + pad : pad + v) + " ";
}

void write_out(std::string_view s) {
    write_fd(1, s);
}
void write_err(std::string_view s) {
    write_fd(2, s);
}

void print_error(std::string_view prog, std::string_view msg) {
    std::string out;
    for (const auto &line : split(msg, '\n')) {
        out.append(prog).append(": error: ").append(line).push_back('\n');
    }
    if (out.empty()) out.append(prog).append(": error: unknown error\n");
    write_err(out);
}

void print_info(std::string_view prog, std::string_view msg) {
    std::string out;
    for (const auto &line : split(msg, '\n')) out.append(prog).append(": ").append(line) += '\n';
    write_err(out);
}

void print_warning(std::string_view prog, std::string_view msg) {
    std::string out;
    out.append(prog).append(": warning: ").append(msg).push_back('\n');
    write_err(out);
}

std::string unreachable_clusters(std::string_view clusters) {
    return "'" + std::string(clusters) +
           "' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list "
           "clusters' to see available clusters.";
}

} // namespace drover::cli
