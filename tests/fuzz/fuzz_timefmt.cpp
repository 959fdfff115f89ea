// fuzz_timefmt.cpp - fuzz target: parse_time_limit, parse_duration_secs, parse_size_mb and
// parse_timestamp on arbitrary text; what parses must format and parse back to the same value.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/error.hpp"
#include "common/timefmt.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096) return 0;
    std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        uint32_t m = drover::parse_time_limit(text);
        if (m == drover::kNoVal) std::abort();
        if (drover::parse_time_limit(drover::format_time_limit(m)) != m) std::abort();
    } catch (const drover::ParseError &) {}
    try {
        // Seconds and minutes agree: a limit is its seconds rounded up to a minute.
        uint64_t secs = drover::parse_duration_secs(text);
        if (secs / 60 < drover::kNoVal - 1 && drover::parse_time_limit(text) != (secs + 59) / 60)
            std::abort();
    } catch (const drover::ParseError &) {}
    try {
        uint64_t mb = drover::parse_size_mb(text);
        if (drover::parse_size_mb(drover::format_size_mb(mb)) != mb) std::abort();
    } catch (const drover::ParseError &) {}
    try {
        const int64_t now = 1795233662; // fixed, so a failure reproduces
        int64_t t = drover::parse_timestamp(text, now);
        (void)drover::format_timestamp(t);
        (void)drover::format_elapsed(t - now);
        (void)drover::format_elapsed_hms(t - now);
    } catch (const drover::ParseError &) {}
    return 0;
}
