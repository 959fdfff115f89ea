// sreport_fields.hpp - sreport's columns (Slurm's names, abbreviations, headers and widths for
// the cluster and job reports), its usage values in each -t format, the width Slurm gives a usage
// column from the largest value in it, and the banner above a report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/sacctmgr_fields.hpp"
#include "cli/sreport_args.hpp"

namespace drover::cli {

// The cluster reports' Format= items: Accounts, Allocated, Cluster, Down, Energy, Idle, Login,
// OverCommitted, PlannedDown, Proper, Reported, Reserved (the "Planned" column), TresCount,
// TresName, Used, WCKey, taken in Slurm's order as their abbreviations; "name%N" sets a width.
// Each field's key: account, allocated, cluster, down, energy, idle, login, over, planned_down,
// proper, reported, planned, count, tresname, used, wckey. An unknown item adds " Unknown field
// 'X'" to errors and is left out, as Slurm does. With tree, Account is 20 wide, left-justified.
std::vector<SacctmgrField> parse_cluster_format(const std::vector<std::string> &items, ReportTime t,
                                                bool tree, std::vector<std::string> &errors);

// The job reports' Format= items: Account, Cluster, Duration, JobCount, NodeCount, TresCount,
// User, Wckey (keys account, cluster, duration, jobcount, nodecount, count, user, wckey).
std::vector<SacctmgrField> parse_job_format(const std::vector<std::string> &items,
                                            std::vector<std::string> &errors);

// A usage of value CPU seconds as -t prints it, a percentage being of total: "83" (minutes,
// rounded), "4980", "1", "12.50%", "4980(12.50%)".
std::string report_time_str(uint64_t value, uint64_t total, ReportTime t);

// Slurm's width for a usage column whose largest value is most seconds: 8, one more for each
// power of ten from 10^8, 9 more in the formats with a percentage.
int usage_col_width(uint64_t most, ReportTime t);

// Sets the width of the columns with this key.
void set_width(std::vector<SacctmgrField> &fields, const std::string &key, int width);

// The lines above a report: dashes, the title, what the usage is in, dashes.
std::string report_banner(const std::string &title, const std::string &units);

// "Usage reported in CPU Minutes" ("Usage reported in Percentage of Total" with -t percent).
std::string usage_units(ReportTime t);

} // namespace drover::cli
