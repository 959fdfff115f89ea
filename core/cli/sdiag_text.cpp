// sdiag_text.cpp - sdiag's layout: the banner with the times, then the counters Drover keeps: the
// jobs, the main scheduler's passes and, when the sched plugin backfills, its cycles.
#include "cli/sdiag_text.hpp"

#include <cstdint>
#include <cstdlib>
#include <ctime>

namespace drover::cli {

namespace {

// "Sat Nov 21 07:30:00 2026 (1795245000)", as Slurm's slurm_ctime2_r with the epoch after it.
std::string stamp(const std::string &epoch) {
    std::time_t t = std::strtoll(epoch.c_str(), nullptr, 10);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%a %b %d %H:%M:%S %Y", &tm);
    return std::string(buf) + " (" + std::to_string(static_cast<long long>(t)) + ")";
}

std::string field(const std::map<std::string, std::string> &f, const char *key) {
    auto it = f.find(key);
    return it == f.end() ? std::string("0") : it->second;
}

uint64_t number(const std::map<std::string, std::string> &f, const char *key) {
    return std::strtoull(field(f, key).c_str(), nullptr, 10);
}

// Slurm's "Backfilling stats", from the sched plugin's counters (bf_*); the means only once a
// cycle has run.
std::string backfill_section(const std::map<std::string, std::string> &f) {
    auto v = [&](const char *k) { return field(f, k); };
    auto mean = [&](const char *sum) {
        return std::to_string(number(f, sum) / number(f, "bf_cycles"));
    };
    const bool cycled = number(f, "bf_cycles") > 0;
    std::string out = "\nBackfilling stats\n";
    out += "\tTotal backfilled jobs (since last slurm start): " + v("bf_backfilled_jobs") + "\n";
    out += "\tTotal backfilled jobs (since last stats cycle start): " +
           v("bf_backfilled_jobs_since_reset") + "\n";
    out += "\tTotal backfilled heterogeneous job components: 0\n";
    out += "\tTotal cycles: " + v("bf_cycles") + "\n";
    if (number(f, "bf_last_cycle_when") > 0)
        out += "\tLast cycle when: " + stamp(v("bf_last_cycle_when")) + "\n";
    else
        out += "\tLast cycle when: N/A\n";
    out += "\tLast cycle: " + v("bf_last_cycle_usec") + "\n";
    out += "\tMax cycle:  " + v("bf_max_cycle_usec") + "\n";
    if (cycled) out += "\tMean cycle: " + mean("bf_cycle_usec_sum") + "\n";
    out += "\tLast depth cycle: " + v("bf_last_depth") + "\n";
    out += "\tLast depth cycle (try sched): " + v("bf_last_depth_try") + "\n";
    if (cycled) {
        out += "\tDepth Mean: " + mean("bf_depth_sum") + "\n";
        out += "\tDepth Mean (try depth): " + mean("bf_depth_try_sum") + "\n";
    }
    out += "\tLast queue length: " + v("bf_last_queue_length") + "\n";
    if (cycled) out += "\tQueue length mean: " + mean("bf_queue_length_sum") + "\n";
    out += "\tLast table size: " + v("bf_last_table_size") + "\n";
    if (cycled) out += "\tMean table size: " + mean("bf_table_size_sum") + "\n";
    return out;
}

} // namespace

std::string sdiag_report(const std::map<std::string, std::string> &f) {
    auto v = [&](const char *k) { return field(f, k); };
    auto n = [&](const char *k) { return number(f, k); };
    const std::string stars = "*******************************************************\n";
    std::string out = stars;
    out += "sdiag output at " + stamp(v("now")) + "\n";
    out += "Data since      " + stamp(v("since")) + "\n";
    out += stars;
    out += "DBD Agent queue size: " + v("dbd_agent_queue_size") + "\n\n";
    out += "Jobs submitted: " + v("jobs_submitted") + "\n";
    out += "Jobs started:   " + v("jobs_started") + "\n";
    out += "Jobs completed: " + v("jobs_completed") + "\n";
    out += "Jobs canceled:  " + v("jobs_canceled") + "\n";
    out += "Jobs failed:    " + v("jobs_failed") + "\n\n";
    out += "Job states ts:  " + stamp(v("now")) + "\n";
    out += "Jobs pending:   " + v("jobs_pending") + "\n";
    out += "Jobs running:   " + v("jobs_running") + "\n\n";
    out += "Main schedule statistics (microseconds):\n";
    out += "\tLast cycle:   " + v("schedule_cycle_last") + "\n";
    out += "\tMax cycle:    " + v("schedule_cycle_max") + "\n";
    out += "\tTotal cycles: " + v("schedule_cycles") + "\n";
    const uint64_t cycles = n("schedule_cycles");
    if (cycles > 0) {
        out += "\tMean cycle:   " + std::to_string(n("schedule_cycle_sum") / cycles) + "\n";
        out += "\tMean depth cycle:  " + std::to_string(n("schedule_cycle_depth") / cycles) + "\n";
    }
    const uint64_t span = n("now") > n("since") ? n("now") - n("since") : 0;
    if (span > 60) out += "\tCycles per minute: " + std::to_string(cycles / (span / 60)) + "\n";
    out += "\tLast queue length: " + v("schedule_queue_length") + "\n";
    if (f.count("bf_cycles")) out += backfill_section(f);
    return out;
}

} // namespace drover::cli
