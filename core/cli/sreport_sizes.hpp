// sreport_sizes.hpp - sreport job SizesByAccount: jobs binned by their allocated CPUs (Grouping=
// bounds: 50,250,500,1000 make "0-49 CPUs" ... ">= 1000 CPUs"; Grouping=individual one column
// per size found), each account line with the CPU time (or, PrintJobCount, the number) of the
// jobs of each bin that ran within the window, and its share of the cluster's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/sreport_args.hpp"
#include "cli/sreport_assoc.hpp"
#include "cli/sreport_usage.hpp"

namespace drover::cli {

struct SizeBin {
    uint32_t min = 0, max = 0;
    bool open = false; // ">= min"
};

// The bins of Grouping= bounds (each from the previous bound to one below its own, then one from
// the last bound up), or with individual one per size in sizes (sorted, once each).
std::vector<SizeBin> size_bins(const std::vector<uint32_t> &grouping, bool individual,
                               std::vector<uint32_t> sizes);

// The bins of a report: Grouping=, or with Grouping=individual the sizes of the jobs (of every
// cluster reported) that ran within the window.
std::vector<SizeBin> job_size_bins(const std::vector<UsageJob> &jobs, const ReportRequest &r);

// "0-49 CPUs", ">= 1000 CPUs", or individually "4 CPUs".
std::string size_bin_header(const SizeBin &b, bool individual);

struct SizeRow {
    std::string account;
    std::vector<uint64_t> secs, jobs; // per bin
    uint64_t total_secs = 0, total_jobs = 0;
};

struct SizeReport {
    std::vector<SizeRow> rows; // the accounts with jobs, by name
    uint64_t cluster_secs = 0, cluster_jobs = 0;
};

// One cluster's report. Lines are the accounts of size_groups (a job counting for the one it is
// within), or with FlatView each job's own account; jobs that did not run within the window, or
// that are within none of the lines, are left out.
SizeReport job_sizes(const std::vector<UsageJob> &jobs, const AssocTree &tree,
                     const ReportRequest &r, const std::vector<SizeBin> &bins);

} // namespace drover::cli
