// sacct_select.cpp - sacct -j items and the lines they keep.
#include "cli/sacct_select.hpp"

#include <drover/proctrack.h>
#include <drover/views.h>

#include <algorithm>

#include "cli/sacct_args.hpp"
#include "cli/text.hpp"

namespace drover::cli {

namespace {

// Whether item names job (its own record or, for an array, the task the record holds; for a
// heterogeneous job's leader, each component: "L+K" names component K alone).
bool names(const SacctSel &item, const proto::AcctJob &job) {
    const JobSpec &s = item.spec;
    bool task = job.array_job_id() != 0 && job.array_task_id() != DROVER_NO_VAL;
    if (s.het_offset != DROVER_NO_VAL) return job.job_id() == s.job_id;
    if (!s.has_tasks)
        return job.job_id() == s.job_id || (task && job.array_job_id() == s.job_id) ||
               (job.het_job_id() && job.het_job_id() == s.job_id);
    return task && job.array_job_id() == s.job_id && task_in(s.tasks, job.array_task_id());
}

uint32_t row_step(const SacctRow &row) {
    if (row.step) return row.step->step_id();
    return row.batch_step ? DROVER_STEP_BATCH : DROVER_NO_VAL;
}

} // namespace

std::vector<SacctSel> parse_sacct_jobs(std::string_view list) {
    std::vector<SacctSel> out;
    for (const auto &raw : split_job_specs(list)) {
        std::string item(trim(raw));
        if (item.empty()) continue;
        SacctSel sel;
        std::string job = item;
        // The step follows the last '.' outside the brackets.
        std::size_t dot = item.rfind('.');
        if (dot != std::string::npos && item.find(']', dot) == std::string::npos) {
            std::string step = item.substr(dot + 1);
            job = item.substr(0, dot);
            if (step == "batch")
                sel.step = DROVER_STEP_BATCH;
            else if (step == "extern")
                sel.step = DROVER_STEP_EXTERN;
            else if (auto n = parse_u32(step); n && *n < DROVER_STEP_BATCH)
                sel.step = *n;
            else
                throw SacctFatal("Bad step specified: " + item);
        }
        auto spec = job.empty() || !std::isdigit(static_cast<unsigned char>(job[0]))
                        ? std::nullopt
                        : parse_job_spec(job);
        if (!spec || spec->job_id == 0) throw SacctFatal("Bad job/step specified: " + item);
        sel.spec = *spec;
        out.push_back(std::move(sel));
    }
    return out;
}

std::vector<uint32_t> sacct_job_ids(const std::vector<SacctSel> &sels) {
    std::vector<uint32_t> ids;
    for (const auto &s : sels)
        if (std::find(ids.begin(), ids.end(), s.spec.job_id) == ids.end())
            ids.push_back(s.spec.job_id);
    return ids;
}

std::vector<SacctRow> sacct_select_rows(const std::vector<SacctRow> &rows,
                                        const std::vector<SacctSel> &sels) {
    if (sels.empty()) return rows;
    std::vector<SacctRow> out;
    for (const auto &row : rows) {
        uint32_t step = row_step(row);
        bool keep = false;
        for (const auto &s : sels) {
            if (!names(s, *row.job)) continue;
            // A whole job keeps every line; a step item keeps that step's line only.
            keep = keep || s.step == DROVER_NO_VAL || (step != DROVER_NO_VAL && s.step == step);
        }
        if (keep) out.push_back(row);
    }
    return out;
}

} // namespace drover::cli
