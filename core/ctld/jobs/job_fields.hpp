// job_fields.hpp - every data member of a Job (and of the structs it holds), by name.
//
// A job must come back from its stored record (job_record.cpp) exactly as it was: a member that
// write_job_info does not store, or read_job_info does not read back, is silently lost when the
// controller restarts (as -w once was: a pending "sbatch -w n3" started on n1 after a restart).
// The structured bindings below must name every member of their struct, so adding a member to
// Job, JobExtra, ArrayInfo, ArrayMeta or Job::NodeAlloc breaks the build here ("N names provided
// for structured binding ... decomposes into M elements") until it is listed. Listing it means:
//   1. give it its line in JobCodec (job_codec.hpp) with a new JobInfo field at the end of the
//      table in proto/job.fbs (and the JobDesc, accounting and view fields it goes to), or, when
//      it is not copied as it is, store it by hand in job_record.cpp's write_special and
//      read_special, or derive it from stored fields in derive_job_fields;
//   2. give it a value other than its default in tests/unit/ctld/job_record_test.cpp's sample
//      jobs (the test fails for a member that no sample sets, and names it).
// The test then encodes the samples, decodes them and compares every member listed here.
#pragma once

#include <array>
#include <tuple>
#include <utility>

#include "ctld/jobs/job.hpp"

namespace drover::ctld {

inline auto job_fields(const Job &j) {
    const auto &[id, uid, gid, state, priority, min_nodes, max_nodes, num_tasks, cpus_per_task,
                 time_limit_min, alloc_cpus, cancelled_by, restart_count, exit_status,
                 derived_exit_status, hold, exclusive, oversubscribe, requeue, open_append,
                 timed_out, kill_sent, requeue_when_ended, hold_when_requeued, interactive,
                 mem_per_node_mb, submit_time, eligible_time, start_time, end_time, name, user_name,
                 partition, account, reason, work_dir, std_out, std_err, std_in, submit_host,
                 comment, command, qos, nodes, node_cpus, node_alloc, mem_per_cpu_mb, tmp_disk_mb,
                 ntasks_per_node, min_cpus_per_node, share, nice, contiguous, kill_on_invalid_dep,
                 state_flags, extra, array_job_id, array_task_id, array, array_meta, expected_start,
                 sched_nodes] = j;
    return std::forward_as_tuple(
        id, uid, gid, state, priority, min_nodes, max_nodes, num_tasks, cpus_per_task,
        time_limit_min, alloc_cpus, cancelled_by, restart_count, exit_status, derived_exit_status,
        hold, exclusive, oversubscribe, requeue, open_append, timed_out, kill_sent,
        requeue_when_ended, hold_when_requeued, interactive, mem_per_node_mb, submit_time,
        eligible_time, start_time, end_time, name, user_name, partition, account, reason, work_dir,
        std_out, std_err, std_in, submit_host, comment, command, qos, nodes, node_cpus, node_alloc,
        mem_per_cpu_mb, tmp_disk_mb, ntasks_per_node, min_cpus_per_node, share, nice, contiguous,
        kill_on_invalid_dep, state_flags, extra, array_job_id, array_task_id, array, array_meta,
        expected_start, sched_nodes);
}
inline constexpr std::array kJobFieldNames = {"id",
                                              "uid",
                                              "gid",
                                              "state",
                                              "priority",
                                              "min_nodes",
                                              "max_nodes",
                                              "num_tasks",
                                              "cpus_per_task",
                                              "time_limit_min",
                                              "alloc_cpus",
                                              "cancelled_by",
                                              "restart_count",
                                              "exit_status",
                                              "derived_exit_status",
                                              "hold",
                                              "exclusive",
                                              "oversubscribe",
                                              "requeue",
                                              "open_append",
                                              "timed_out",
                                              "kill_sent",
                                              "requeue_when_ended",
                                              "hold_when_requeued",
                                              "interactive",
                                              "mem_per_node_mb",
                                              "submit_time",
                                              "eligible_time",
                                              "start_time",
                                              "end_time",
                                              "name",
                                              "user_name",
                                              "partition",
                                              "account",
                                              "reason",
                                              "work_dir",
                                              "std_out",
                                              "std_err",
                                              "std_in",
                                              "submit_host",
                                              "comment",
                                              "command",
                                              "qos",
                                              "nodes",
                                              "node_cpus",
                                              "node_alloc",
                                              "mem_per_cpu_mb",
                                              "tmp_disk_mb",
                                              "ntasks_per_node",
                                              "min_cpus_per_node",
                                              "share",
                                              "nice",
                                              "contiguous",
                                              "kill_on_invalid_dep",
                                              "state_flags",
                                              "extra",
                                              "array_job_id",
                                              "array_task_id",
                                              "array",
                                              "array_meta",
                                              "expected_start",
                                              "sched_nodes"};

inline auto extra_fields(const JobExtra &x) {
    const auto &[gres, constraint, req_nodes, exc_nodes, signal, gpus, gpus_per_node, gpus_per_task,
                 req_bits, exc_bits, deadline, signal_num, signal_secs, signal_batch_only,
                 signal_sent, orig_dependency, dependency, gpu_bind, overcommit, licenses,
                 reservation, suspend_time, pre_suspend_secs, suspended_by_preemption, fed_clusters,
                 cluster_features, siblings_viable, siblings_active, cluster_lock, het_job_id,
                 het_job_offset, het_size] = x;
    return std::forward_as_tuple(
        gres, constraint, req_nodes, exc_nodes, signal, gpus, gpus_per_node, gpus_per_task,
        req_bits, exc_bits, deadline, signal_num, signal_secs, signal_batch_only, signal_sent,
        orig_dependency, dependency, gpu_bind, overcommit, licenses, reservation, suspend_time,
        pre_suspend_secs, suspended_by_preemption, fed_clusters, cluster_features, siblings_viable,
        siblings_active, cluster_lock, het_job_id, het_job_offset, het_size);
}
inline constexpr std::array kExtraFieldNames = {"gres",
                                                "constraint",
                                                "req_nodes",
                                                "exc_nodes",
                                                "signal",
                                                "gpus",
                                                "gpus_per_node",
                                                "gpus_per_task",
                                                "req_bits",
                                                "exc_bits",
                                                "deadline",
                                                "signal_num",
                                                "signal_secs",
                                                "signal_batch_only",
                                                "signal_sent",
                                                "orig_dependency",
                                                "dependency",
                                                "gpu_bind",
                                                "overcommit",
                                                "licenses",
                                                "reservation",
                                                "suspend_time",
                                                "pre_suspend_secs",
                                                "suspended_by_preemption",
                                                "fed_clusters",
                                                "cluster_features",
                                                "siblings_viable",
                                                "siblings_active",
                                                "cluster_lock",
                                                "het_job_id",
                                                "het_job_offset",
                                                "het_size"};

inline auto array_info_fields(const ArrayInfo &a) {
    const auto &[pending, max_running, step, min_task, max_task, count] = a;
    return std::forward_as_tuple(pending, max_running, step, min_task, max_task, count);
}
inline constexpr std::array kArrayInfoFieldNames = {"pending",  "max_running", "step",
                                                    "min_task", "max_task",    "count"};

inline auto array_meta_fields(const ArrayMeta &m) {
    const auto &[count, min_task, max_task, step] = m;
    return std::forward_as_tuple(count, min_task, max_task, step);
}
inline constexpr std::array kArrayMetaFieldNames = {"count", "min_task", "max_task", "step"};

inline auto node_alloc_fields(const Job::NodeAlloc &a) {
    const auto &[mem_mb, cpu_ids, gres] = a;
    return std::forward_as_tuple(mem_mb, cpu_ids, gres);
}
inline constexpr std::array kNodeAllocFieldNames = {"mem_mb", "cpu_ids", "gres"};

// Each list of names matches its binding (a name added to one and not the other fails here).
static_assert(std::tuple_size_v<decltype(job_fields(std::declval<const Job &>()))> ==
              kJobFieldNames.size());
static_assert(std::tuple_size_v<decltype(extra_fields(std::declval<const JobExtra &>()))> ==
              kExtraFieldNames.size());
static_assert(std::tuple_size_v<decltype(array_info_fields(std::declval<const ArrayInfo &>()))> ==
              kArrayInfoFieldNames.size());
static_assert(std::tuple_size_v<decltype(array_meta_fields(std::declval<const ArrayMeta &>()))> ==
              kArrayMetaFieldNames.size());
static_assert(
    std::tuple_size_v<decltype(node_alloc_fields(std::declval<const Job::NodeAlloc &>()))> ==
    kNodeAllocFieldNames.size());

} // namespace drover::ctld
