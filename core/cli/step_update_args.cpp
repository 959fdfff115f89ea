// step_update_args.cpp - scontrol update StepId=...'s words.
#include "cli/step_update_args.hpp"

#include "cli/job_ids.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover::cli {

namespace {

// "123" or "123.4" (not an array task, not batch or extern: those are not user steps).
void read_step_id(std::string_view value, StepUpdate &u) {
    auto spec = parse_job_spec(value);
    bool special = spec && (spec->step_id == 0xfffffffbu || spec->step_id == 0xfffffffcu);
    if (!spec || spec->has_tasks || special)
        throw ParseError("Invalid StepId " + std::string(value));
    u.job_id = spec->job_id;
    u.step_id = spec->step_id;
}

void read_time_limit(std::string_view value, StepUpdate &u) {
    if (!value.empty() && (value.front() == '+' || value.front() == '-')) {
        u.sign = value.front() == '+' ? 1 : -1;
        value.remove_prefix(1);
    }
    try {
        u.time_limit = parse_time_limit(value);
    } catch (const ParseError &) {
        throw ParseError("Invalid TimeLimit value");
    }
    if (u.sign && u.time_limit == 0xffffffffu) throw ParseError("Invalid TimeLimit value");
}

} // namespace

StepUpdate parse_step_update(std::span<const std::string> words) {
    StepUpdate u;
    bool step = false, limit = false;
    for (const auto &w : words) {
        std::size_t eq = w.find('=');
        std::string_view tag = std::string_view(w).substr(0, eq);
        std::string_view value = eq == std::string::npos ? "" : std::string_view(w).substr(eq + 1);
        if (eq != std::string::npos && abbreviates(tag, "StepId", 4)) {
            read_step_id(value, u);
            step = true;
        } else if (eq != std::string::npos && abbreviates(tag, "TimeLimit", 2)) {
            read_time_limit(value, u);
            limit = true;
        } else {
            throw ParseError("Update of this parameter is not supported: " + w);
        }
    }
    if (!step) throw ParseError("Invalid StepId ");
    if (!limit) throw ParseError("No changes specified");
    return u;
}

} // namespace drover::cli
