// job_ids.hpp - the job ids and job specs users write: squeue -j, scancel's arguments, scontrol's
// JobId= and hold/release/requeue lists, sacct -j. A spec names a job, a whole array, some of an
// array's tasks, or one component of a heterogeneous job: "123", "123_4", "123_[1-3,7]", "123+1".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proto/message_generated.h"

namespace drover::cli {

// Parses "12,13, 14" into ids: each item a positive number, spaces around it allowed. Throws
// drover::ParseError("<error_prefix><item>") for a bad item, and with the whole list as the
// item when it holds no id at all.
std::vector<uint32_t> parse_job_id_list(std::string_view list, std::string_view error_prefix);

// Array task ids lo..hi.
struct TaskRange {
    uint32_t lo = 0, hi = 0;
    bool operator==(const TaskRange &) const = default;
};

// Parses a task list: "4", "1-3", "1,3-5,9" (as users write it inside brackets and as the
// controller lists a record's waiting tasks). Ranges are kept as written (not sorted or merged).
// nullopt when empty or malformed (a range with hi < lo, a non-number).
std::optional<std::vector<TaskRange>> parse_task_ranges(std::string_view text);

// Whether task is in one of the ranges.
bool task_in(const std::vector<TaskRange> &ranges, uint32_t task);

// The task ids of ranges in ascending order without duplicates, at most limit of them (nullopt
// when there are more).
std::optional<std::vector<uint32_t>> expand_tasks(const std::vector<TaskRange> &ranges,
                                                  std::size_t limit);

// One job as a user names it.
struct JobSpec {
    uint32_t job_id = 0;
    bool has_tasks = false;         // "_4" or "_[...]" given
    std::vector<TaskRange> tasks;   // when has_tasks
    std::string text;               // as written (spaces around it removed)
    uint32_t step_id = 0xfffffffeu; // "123.4": a step (0xfffffffb for "123.batch"); NO_VAL = none
    // "123+1": the offset of the heterogeneous job component named (job_id is then the
    // component's own id, 124: components have consecutive ids from the leader's); NO_VAL: none.
    uint32_t het_offset = 0xfffffffeu;

    // Whether job is what this spec names: the job itself or, for a bare id, any task of the
    // array or any component of the heterogeneous job with that id; with tasks, a task among
    // them or the array's pending record while it still holds one of them; "L+K": component K
    // alone.
    bool matches(const proto::JobInfo &job) const;
    // For a pending array record this spec names only some tasks of: whether it names task.
    bool names_task(uint32_t task) const { return !has_tasks || task_in(tasks, task); }
};

// Parses one spec: "123", "123_4", "123_[1-3,7]", "123+1", any of them with a step (".4",
// ".batch", ".extern"); a "%N" throttle inside the brackets is ignored ("123_[4-15%2]", as squeue
// prints a record). nullopt when malformed ("12+", "+1", "12+x", "12+1_3").
std::optional<JobSpec> parse_job_spec(std::string_view text);

// Parses a comma-separated list of specs (a comma inside brackets belongs to its spec; spaces
// around items allowed). Throws drover::ParseError("<error_prefix><item>") for a bad item, and
// with the whole list when it holds none.
std::vector<JobSpec> parse_job_spec_list(std::string_view list, std::string_view error_prefix);

// Splits a comma-separated spec list into items, keeping commas inside brackets.
std::vector<std::string> split_job_specs(std::string_view list);

// The distinct job ids the specs name, in the order first named.
std::vector<uint32_t> spec_job_ids(const std::vector<JobSpec> &specs);

} // namespace drover::cli
