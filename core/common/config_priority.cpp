// config_priority.cpp - the Priority* and Preempt* keys of slurm.conf. The core reads PriorityType
// and how usage is decayed and reset; the priority plugin reads its weights, flags and ages itself
// (through conf_get, refusing bad values when it loads), so here they are only known, not warned
// about. Preemption is the core's: PreemptType, PreemptMode and PreemptExemptTime.
#include <array>
#include <string_view>

#include "common/config.hpp"
#include "common/config_parse.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover::detail {

namespace {

// Read by the priority plugin.
constexpr std::array<std::string_view, 14> kPluginKeys = {
    "prioritymaxage",           "priorityweightage",       "priorityweightassoc",
    "priorityweightfairshare",  "priorityweightjobsize",   "priorityweightpartition",
    "priorityweightqos",        "priorityweighttres",      "priorityflags",
    "priorityfavorsmall",       "priorityparameters",      "prioritysitefactorparameters",
    "prioritysitefactorplugin", "fairsharedampeningfactor"};

constexpr std::array<std::string_view, 7> kResetPeriods = {
    "NONE", "NOW", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "YEARLY"};

} // namespace

void ConfigBuilder::priority_key(const std::string &loc, const ConfPair &p) {
    const std::string &k = p.lkey;
    auto secs = [&](uint64_t min) {
        try {
            uint64_t s = parse_duration_secs(p.value);
            if (s >= min) return s;
        } catch (const ParseError &) {}
        bad_value(loc, p,
                  min ? "expected a time of at least 1 second: minutes, M:S, H:M:S or D-H[:M[:S]]"
                      : "expected a time: minutes, M:S, H:M:S or D-H[:M[:S]]");
    };
    if (k == "prioritytype") {
        std::string v = to_lower(trim(p.value));
        cfg_.priority_type = v == "priority/basic" ? "" : v;
    } else if (k == "prioritycalcperiod") {
        cfg_.priority_calc_period_s = secs(1);
    } else if (k == "prioritydecayhalflife") {
        cfg_.priority_decay_half_life_s = secs(0);
    } else if (k == "priorityusageresetperiod") {
        std::string v = to_upper(trim(p.value));
        for (std::string_view r : kResetPeriods)
            if (v == r) {
                cfg_.priority_usage_reset_period = v;
                return;
            }
        bad_value(loc, p, "expected NONE, NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY or YEARLY");
    } else {
        for (std::string_view key : kPluginKeys)
            if (k == key) return;
        warn_unknown(loc, p);
    }
}

// One of OFF, CANCEL, REQUEUE or SUSPEND, with GANG beside it or not (Slurm's SUSPEND,GANG:
// Drover resumes a job suspended by preemption once the jobs that took its CPUs have ended;
// GANG's time-slicing of oversubscribed partitions is not done, so GANG alone is refused).
std::string parse_preempt_mode(const std::string &loc, const ConfPair &p) {
    std::string mode;
    bool gang = false;
    for (const std::string &word : split_list(to_upper(p.value))) {
        if (word == "GANG") {
            gang = true;
            continue;
        }
        if (word != "OFF" && word != "CANCEL" && word != "REQUEUE" && word != "SUSPEND")
            bad_value(loc, p, "expected OFF, CANCEL, REQUEUE or SUSPEND (with GANG)");
        if (!mode.empty()) bad_value(loc, p, "expected one of OFF, CANCEL, REQUEUE or SUSPEND");
        mode = word;
    }
    if (mode.empty() && gang)
        bad_value(loc, p, "GANG alone (time-slicing) is not supported yet: use SUSPEND,GANG");
    if (mode.empty()) bad_value(loc, p, "expected OFF, CANCEL, REQUEUE or SUSPEND (with GANG)");
    return mode;
}

void ConfigBuilder::preempt_key(const std::string &loc, const ConfPair &p) {
    if (p.lkey == "preempttype") {
        std::string v = to_lower(trim(p.value));
        if (v == "preempt/none" || v.empty())
            cfg_.preempt_type.clear();
        else if (v == "preempt/partition_prio" || v == "preempt/qos")
            cfg_.preempt_type = v;
        else
            bad_value(loc, p, "expected preempt/none, preempt/partition_prio or preempt/qos");
    } else if (p.lkey == "preemptmode") {
        cfg_.preempt_mode = parse_preempt_mode(loc, p);
    } else {
        try {
            cfg_.preempt_exempt_time_s = parse_duration_secs(p.value);
        } catch (const ParseError &) {
            bad_value(loc, p, "expected a time: minutes, M:S, H:M:S or D-H[:M[:S]]");
        }
    }
}

} // namespace drover::detail
