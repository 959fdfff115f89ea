// sreport_args.hpp - sreport's options (-a, -M, -n, -p, -P, -Q, -s, -t, -v, -V, -h) and the
// report it is asked for: "cluster Utilization|AccountUtilizationByUser|UserUtilizationByAccount"
// or "job SizesByAccount" with their conditions (Start=, End=, Clusters=, All_Clusters, Users=,
// Accounts=, Format=, Tree, Grouping=, PrintJobCount, FlatView, AcctAsParent, ...), words and
// abbreviations as Slurm's sreport reads them, and Slurm's report window.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/options.hpp"

namespace drover::cli {

// -t: how usage is printed (Slurm's SLURMDB_REPORT_TIME_*).
enum class ReportTime { seconds, minutes, hours, percent, seconds_per, minutes_per, hours_per };

// Reads a -t / "time" word as Slurm does (SecPer, MinPer and HourPer need 6 letters, Seconds,
// Minutes, Hours and Percent one); false when it is none of them.
bool parse_report_time(std::string_view word, ReportTime &out);
// "Minutes", "Seconds/Percentage of Total", ...: what the banner says the usage is in.
const char *report_time_name(ReportTime t);
// The formats that print a value with its percentage ("123(4.56%)").
bool per_format(ReportTime t);

struct SreportArgs : CommonFlags {
    bool all_clusters = false, noheader = false, parsable = false, parsable2 = false;
    bool sort_by_name = false; // -s name (default: time)
    ReportTime time = ReportTime::minutes;
    std::vector<std::string> clusters; // -M
    std::vector<std::string> words;    // the command: "cluster utilization start=..."
    std::vector<std::string>
        warnings; // what Slurm prints and goes on after ("unknown time format")
};

// Parses the options; the rest are the command's words. Throws UsageError.
SreportArgs parse_sreport_args(std::span<const std::string> args);

enum class ReportKind { utilization, account_by_user, user_by_account, sizes_by_account };

// The report window: [start, end), whole hours of local time.
struct ReportWindow {
    int64_t start = 0, end = 0;
};

// Slurm's window (slurmdb_report_set_start_end_time): an end after now is now; both are rounded
// to the nearest hour (30 minutes and more round up); no start is 00:00 yesterday, no end 00:00
// today; a window shorter than an hour is made one hour long. 0 means not given.
ReportWindow report_window(int64_t start, int64_t end, int64_t now);

struct ReportRequest {
    ReportKind kind = ReportKind::utilization;
    ReportWindow window;
    std::vector<std::string> clusters; // -M and Clusters= (empty: the local cluster)
    bool all_clusters = false;
    std::vector<std::string> users, accounts, partitions, nodes;
    std::vector<uint32_t> job_ids;
    std::vector<std::string> format; // Format= items as written
    bool tree = false;               // AccountUtilizationByUser: indent the hierarchy
    // SizesByAccount: Grouping= bounds (default 50,250,500,1000); individual: one column per size.
    std::vector<uint32_t> grouping;
    bool individual = false, print_job_count = false, flat_view = false, acct_as_parent = false;
    // Lines Slurm prints for conditions it does not know; the report still runs (status 1).
    std::vector<std::string> errors;
};

// Reads the command words ("cluster", "utilization", conditions...). Throws drover::ParseError
// whose what() is what sreport prints ("Not valid report X\n..."), or names what Drover does not
// support.
ReportRequest parse_report_request(const std::vector<std::string> &words, const SreportArgs &a,
                                   int64_t now);

} // namespace drover::cli
