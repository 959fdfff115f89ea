// sacct_select.hpp - sacct -j: the jobs, array tasks and steps a user names, and the lines they
// keep.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "cli/job_ids.hpp"
#include "cli/sacct_rows.hpp"

namespace drover::cli {

// One -j item: a job, an array's tasks ("123_4", "123_[1-3]"), either with a step or not.
struct SacctSel {
    JobSpec spec;
    uint32_t step = 0xfffffffeu; // DROVER_NO_VAL: the job line and all its steps
};

// Parses -j's comma-separated list: "123", "123.batch", "123.extern", "123.4", "123_4",
// "123_[1-3]", "123_4.0", "123+1" (a heterogeneous job's component: job 124). Throws SacctFatal
// with Slurm's "Bad job/step specified: X" or "Bad step specified: X".
std::vector<SacctSel> parse_sacct_jobs(std::string_view list);

// The job ids the store is asked for, without repeats.
std::vector<uint32_t> sacct_job_ids(const std::vector<SacctSel> &sels);

// The lines sels keep (all when sels is empty): a job's line when an item names the job without
// a step, and then all its steps; else only the steps items name.
std::vector<SacctRow> sacct_select_rows(const std::vector<SacctRow> &rows,
                                        const std::vector<SacctSel> &sels);

} // namespace drover::cli
