// time_str.cpp - slurm.time_str2mins: Slurm's time limit syntax to minutes (slurm_table.hpp).
#include <cctype>
#include <string_view>

#include "slurm_table.hpp"

namespace drover::jslua {

namespace {

constexpr int64_t kBad = -2;       // NO_VAL as Slurm's int return shows it
constexpr int64_t kUnlimited = -1; // INFINITE likewise

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
    return true;
}

// A run of 1..9 digits (more could overflow and no time limit needs them), or -1.
int64_t number(std::string_view s) {
    if (s.empty() || s.size() > 9) return -1;
    int64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return -1;
        v = v * 10 + (c - '0');
    }
    return v;
}

// Splits "a:b:c" into at most 3 numbers; false on anything else.
bool fields(std::string_view s, int64_t out[3], int *count) {
    *count = 0;
    while (true) {
        size_t colon = s.find(':');
        if (*count == 3) return false;
        int64_t v = number(s.substr(0, colon));
        if (v < 0) return false;
        out[(*count)++] = v;
        if (colon == std::string_view::npos) return true;
        s.remove_prefix(colon + 1);
    }
}

} // namespace

int64_t time_str2mins(std::string_view s) {
    if (s.empty()) return kBad;
    if (s == "-1" || iequals(s, "infinite") || iequals(s, "unlimited")) return kUnlimited;
    int64_t days = 0;
    bool has_days = false;
    if (size_t dash = s.find('-'); dash != std::string_view::npos) {
        days = number(s.substr(0, dash));
        if (days < 0) return kBad;
        has_days = true;
        s.remove_prefix(dash + 1);
    }
    int64_t f[3] = {0, 0, 0};
    int n = 0;
    // "days-" alone means whole days, as in Slurm.
    if (!(has_days && s.empty()) && !fields(s, f, &n)) return kBad;
    int64_t secs = days * 86400;
    if (has_days || n == 3) // [days-]hours[:minutes[:seconds]]
        secs += f[0] * 3600 + f[1] * 60 + f[2];
    else // minutes[:seconds]
        secs += f[0] * 60 + f[1];
    return (secs + 59) / 60;
}

} // namespace drover::jslua
