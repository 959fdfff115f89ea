// sreport_sizes.cpp - job size bins and the SizesByAccount lines.
#include "cli/sreport_sizes.hpp"

#include <algorithm>
#include <map>

namespace drover::cli {

namespace {

// The line a job counts for, "" for none.
std::string line_of(const UsageJob &j, const AssocTree &tree,
                    const std::vector<std::string> &groups, bool flat) {
    if (flat) return j.account;
    for (const auto &g : groups)
        if (tree.within(j.account, g)) return g;
    return "";
}

} // namespace

std::vector<SizeBin> size_bins(const std::vector<uint32_t> &grouping, bool individual,
                               std::vector<uint32_t> sizes) {
    std::vector<SizeBin> out;
    if (individual) {
        std::sort(sizes.begin(), sizes.end());
        sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
        for (uint32_t s : sizes) out.push_back({s, s, false});
        return out;
    }
    uint32_t last = 0;
    for (uint32_t g : grouping) {
        out.push_back({last, g - 1, false}); // as Slurm does, a bound of 0 wraps around
        last = g;
    }
    if (last) out.push_back({last, UINT32_MAX, true});
    return out;
}

std::string size_bin_header(const SizeBin &b, bool individual) {
    if (individual) return std::to_string(b.min) + " CPUs";
    if (b.open) return ">= " + std::to_string(b.min) + " CPUs";
    return std::to_string(b.min) + "-" + std::to_string(b.max) + " CPUs";
}

std::vector<SizeBin> job_size_bins(const std::vector<UsageJob> &jobs, const ReportRequest &r) {
    std::vector<uint32_t> sizes;
    for (const auto &j : jobs)
        if (job_elapsed(j, r.window) > 0) sizes.push_back(j.alloc_cpus);
    return size_bins(r.grouping, r.individual, sizes);
}

SizeReport job_sizes(const std::vector<UsageJob> &jobs, const AssocTree &tree,
                     const ReportRequest &r, const std::vector<SizeBin> &bins) {
    SizeReport out;
    const auto groups = size_groups(tree, r.accounts, r.acct_as_parent);
    std::map<std::string, SizeRow> lines;
    for (const auto &j : jobs) {
        const int64_t elapsed = job_elapsed(j, r.window);
        const std::string line = line_of(j, tree, groups, r.flat_view);
        if (elapsed <= 0 || (line.empty() && !r.flat_view)) continue;
        for (std::size_t b = 0; b < bins.size(); ++b) {
            if (j.alloc_cpus < bins[b].min || j.alloc_cpus > bins[b].max) continue;
            SizeRow &row = lines[line];
            row.account = line;
            row.secs.resize(bins.size());
            row.jobs.resize(bins.size());
            const uint64_t secs = uint64_t(elapsed) * j.alloc_cpus;
            row.secs[b] += secs;
            row.jobs[b] += 1;
            row.total_secs += secs;
            row.total_jobs += 1;
            out.cluster_secs += secs;
            out.cluster_jobs += 1;
        }
    }
    for (auto &[name, row] : lines) out.rows.push_back(std::move(row));
    return out;
}

} // namespace drover::cli
