// resv_flags.cpp - reservation flags between bits and Slurm's names.
#include "common/resv_flags.hpp"

#include "common/ascii.hpp"
#include "common/config_parse.hpp"
#include "common/error.hpp"

namespace drover {

namespace {

struct FlagName {
    uint64_t bit;
    const char *name;
};
// In the order scontrol shows them.
constexpr FlagName kFlags[] = {
    {kResvMaint, "MAINT"},          {kResvFlex, "FLEX"},
    {kResvOverlap, "OVERLAP"},      {kResvIgnoreJobs, "IGNORE_JOBS"},
    {kResvHourly, "HOURLY"},        {kResvDaily, "DAILY"},
    {kResvWeekday, "WEEKDAY"},      {kResvWeekend, "WEEKEND"},
    {kResvWeekly, "WEEKLY"},        {kResvSpecNodes, "SPEC_NODES"},
    {kResvAllNodes, "ALL_NODES"},   {kResvNoHoldJobsAfter, "NO_HOLD_JOBS_AFTER"},
    {kResvPurgeComp, "PURGE_COMP"}, {kResvMagnetic, "MAGNETIC"},
};

} // namespace

uint64_t parse_resv_flags(std::string_view text) {
    uint64_t bits = 0;
    for (const std::string &word : detail::split_list(text)) {
        const std::string item = ascii_upper(word);
        bool known = false;
        for (const FlagName &f : kFlags)
            if (item == f.name) {
                bits |= f.bit;
                known = true;
            }
        if (!known) throw ParseError("Error parsing flags " + item);
    }
    return bits;
}

std::string format_resv_flags(uint64_t flags) {
    std::string out;
    for (const FlagName &f : kFlags)
        if (flags & f.bit) out += (out.empty() ? "" : ",") + std::string(f.name);
    return out;
}

} // namespace drover
