// squeue_fields.hpp - squeue's columns: the -o letters and -O names, their headers and values,
// and its sort order.
#pragma once

#include <functional>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/format_spec.hpp"
#include "cli/job_ids.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

inline constexpr const char *kSqueueDefaultFormat = "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R";
inline constexpr const char *kSqueueLongFormat = "%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R";
inline constexpr const char *kSqueueStepsFormat = "%.15i %.8j %.9P %.8u %.9M %N";
inline constexpr const char *kSqueueStartFormat = "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R";
inline constexpr const char *kSqueueDefaultSort = "P,t,-p";

// A format with each field resolved to the job attribute it shows.
struct SqueueFormat {
    FormatSpec spec;
    std::vector<int> kinds; // parallel to spec.fields
    // The name of this cluster's federation member with a federation id (Origin, Siblings*
    // columns); unset: none is known.
    std::function<std::string(uint32_t)> member_name;
};

// Resolves a -o format. Throws drover::ParseError("Invalid job format specification: x").
SqueueFormat squeue_percent_format(std::string_view fmt);
// Resolves a -O format (default width 20). Same errors.
SqueueFormat squeue_long_format(std::string_view fmt);

std::string squeue_header(const SqueueFormat &f);
// One line of squeue: a job as it is, or part of a pending array record: one waiting task of it
// (squeue -r, or -j naming one), or some of its waiting tasks (-j naming several).
struct SqueueRow {
    const proto::JobInfo *job = nullptr;
    uint32_t task = 0xfffffffeu; // one waiting task; NO_VAL: not one task
    std::string tasks;           // some waiting tasks ("5-6"); "": not a subset
};

std::string squeue_line(const SqueueFormat &f, const SqueueRow &row, int64_t now);
inline std::string squeue_line(const SqueueFormat &f, const proto::JobInfo &job, int64_t now,
                               uint32_t task = 0xfffffffeu) {
    return squeue_line(f, SqueueRow{&job, task, {}}, now);
}

// The rows for sorted jobs, as Slurm's squeue: each job once, except a pending array record:
// with expand (-r) one row per waiting task; when the specs (-j) name only some of its tasks,
// just those (one row for one task, else one row listing them; with expand one row each).
// specs may be empty (no -j).
std::vector<SqueueRow> squeue_rows(const std::vector<const proto::JobInfo *> &jobs, bool expand,
                                   const std::vector<JobSpec> &specs);

// Job arrays and dependencies as squeue and scontrol print them.
// A pending array record: the array's task id is NO_VAL and it lists waiting tasks.
bool is_array_record(const proto::JobInfo &job);
// The record's waiting tasks as Slurm prints them: "4-15", "0-3,5,9", an even spread over more
// than ten ids as "1-21:4", with the "%N" throttle after ("4-15%2"); "" for other jobs.
std::string array_task_string(const proto::JobInfo &job);
// squeue's %i: "123", an array task "123_4", a pending record "123_[4-15%2]", a heterogeneous
// job's component "123+1".
std::string job_array_id(const proto::JobInfo &job);
// A heterogeneous job's component ids, as scontrol's HetJobIdSet= and squeue's -O HetJobIDSet
// show them: "93-95" (its components have consecutive ids); "" for other jobs.
std::string het_job_id_set(const proto::JobInfo &job);
// squeue's %E and scontrol's Dependency=: each term still unmet followed by "(unfulfilled)"
// ("(failed)" for one that can never be met), joined as submitted; "(null)" when none.
std::string dependency_text(const proto::JobInfo &job);
// The generic resources a job asks for per node, per job and per task, as Slurm's TRES strings
// ("gres/gpu:2,gres/nic:1"); "" when none.
std::string tres_per_node(const proto::JobInfo &job);
std::string tres_per_job(const proto::JobInfo &job);
std::string tres_per_task(const proto::JobInfo &job);

// Seconds the job has run: 0 while pending; up to now while running; to its end after.
int64_t job_time_used(const proto::JobInfo &job, int64_t now);
// When the job ended, or is expected to end (start + limit while running); 0 if unknown.
int64_t job_end_time(const proto::JobInfo &job);
// Nodes the job holds (or asks for while pending).
uint32_t job_node_count(const proto::JobInfo &job);

// Sorts by a -S spec ("P,t,-p"); ties fall back to later start first, then job id.
// Throws drover::ParseError("Invalid sort specification: x").
void squeue_sort(std::vector<const proto::JobInfo *> &jobs, std::string_view spec, int64_t now);

} // namespace drover::cli
