// sdiag_text.cpp - sdiag's layout: the banner with the times, then the counters Drover keeps.
#include "cli/sdiag_text.hpp"

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

}  // namespace

std::string sdiag_report(const std::map<std::string, std::string> &f) {
    auto v = [&](const char *k) {
        auto it = f.find(k);
        return it == f.end() ? std::string("0") : it->second;
    };
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
    out += "\tTotal cycles: " + v("schedule_cycles") + "\n";
    return out;
}

}  // namespace drover::cli
