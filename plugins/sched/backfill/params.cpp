// params.cpp - SchedulerParameters for sched/backfill.
#include "params.hpp"

#include <charconv>

namespace drover::backfill {

namespace {

// A positive decimal number no larger than limit, or false.
bool positive(std::string_view v, uint32_t limit, uint32_t *out) {
    uint64_t n = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || end != v.data() + v.size() || n == 0 || n > limit) return false;
    *out = static_cast<uint32_t>(n);
    return true;
}

} // namespace

Params parse_params(std::string_view text, std::vector<std::string> *warnings) {
    Params p;
    struct Number {
        std::string_view name;
        uint32_t *value;
        uint32_t limit;
    };
    const Number numbers[] = {
        {"bf_interval", &p.interval_s, 10800},
        {"bf_max_job_test", &p.max_job_test, 1000000},
        {"bf_window", &p.window_min, 43200}, // 30 days
        {"bf_resolution", &p.resolution_s, 3600},
    };
    while (!text.empty()) {
        const auto comma = text.find(',');
        std::string_view item = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        const auto eq = item.find('=');
        const std::string_view key = item.substr(0, eq);
        const std::string_view value =
            eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
        if (key == "bf_busy_nodes") {
            p.busy_nodes = true;
            continue;
        }
        if (key == "bf_continue") {
            p.continue_ = true;
            continue;
        }
        for (const Number &n : numbers) {
            if (key != n.name) continue;
            if (!positive(value, n.limit, n.value) && warnings)
                warnings->push_back("SchedulerParameters " + std::string(item) +
                                    ": expected a number from 1 to " + std::to_string(n.limit) +
                                    ", keeping " + std::to_string(*n.value));
        }
    }
    return p;
}

} // namespace drover::backfill
