// job_codec.hpp - the one table of a Job's fields and where each goes: the record (JobInfo,
// stored and shown), the submission (JobDesc), the accounting record and the plugin view.
//
// A field that is copied as it is (a number or a string, its type converted at most) is one line
// of JobCodec; each conversion (the record in job_record.cpp, the submission in job_submit.cpp,
// the accounting record and the plugin view in job_codec.cpp) copies every line that names its
// side. A field that needs more (a default, a check, node indexes turned into names) is written
// by hand next to the table's copy. Every member is also listed in job_fields.hpp.
#pragma once

#include <drover/views.h>

#include <type_traits>

#include "ctld/acct/acct_records.hpp"
#include "ctld/jobs/job.hpp"
#include "plugin/field_table.hpp"
#include "proto/message_generated.h"

namespace drover::ctld::codec {

// One field: the member of Job (or of its JobExtra), then its JobInfo field (the stored record
// and what squeue and scontrol show), the JobDesc field a submission sets it from, the
// AcctRecord field and the drover_job_view field; nullptr where the field has none.
template <auto Member, auto Info, auto Desc = nullptr, auto Acct = nullptr, auto View = nullptr>
struct Field {
    static constexpr auto member = Member, info = Info, desc = Desc, acct = Acct, view = View;
};

using proto::JobDescT, proto::JobInfoT;
using J = Job;
using X = JobExtra;
using A = AcctRecord;
using V = drover_job_view;

// clang-format off
using JobCodec = plugin::FieldTable<
    //    Job member               JobInfo                        JobDesc                       AcctRecord           plugin view
    Field<&J::id,                  &JobInfoT::job_id,             nullptr,                      &A::job_id,          &V::job_id>,
    Field<&J::uid,                 &JobInfoT::user_id,            nullptr,                      &A::user_id,         &V::user_id>,
    Field<&J::gid,                 &JobInfoT::group_id,           nullptr,                      &A::group_id,        &V::group_id>,
    Field<&J::state,               &JobInfoT::state,              nullptr,                      &A::state,           &V::state>,
    Field<&J::priority,            &JobInfoT::priority,           nullptr,                      nullptr,             &V::priority>,
    Field<&J::min_nodes,           &JobInfoT::min_nodes,          nullptr,                      nullptr,             &V::min_nodes>,
    Field<&J::max_nodes,           &JobInfoT::max_nodes,          nullptr,                      nullptr,             &V::max_nodes>,
    Field<&J::num_tasks,           &JobInfoT::num_tasks,          nullptr,                      nullptr,             &V::num_tasks>,
    Field<&J::cpus_per_task,       &JobInfoT::cpus_per_task,      nullptr,                      nullptr,             &V::cpus_per_task>,
    Field<&J::time_limit_min,      &JobInfoT::time_limit_min,     &JobDescT::time_limit_min,    &A::time_limit_min,  &V::time_limit_min>,
    Field<&J::alloc_cpus,          &JobInfoT::alloc_cpus,         nullptr,                      &A::alloc_cpus>,
    Field<&J::cancelled_by,        &JobInfoT::cancelled_by,       nullptr,                      &A::cancelled_by>,
    Field<&J::restart_count,       &JobInfoT::restart_count>,
    Field<&J::exit_status,         &JobInfoT::exit_status,        nullptr,                      &A::exit_status>,
    Field<&J::derived_exit_status, &JobInfoT::derived_exit_status>,
    Field<&J::exclusive,           &JobInfoT::exclusive,          &JobDescT::exclusive>,
    Field<&J::oversubscribe,       &JobInfoT::oversubscribe,      &JobDescT::oversubscribe>,
    Field<&J::requeue,             &JobInfoT::requeue>,
    Field<&J::open_append,         &JobInfoT::open_append,        &JobDescT::open_mode_append>,
    Field<&J::timed_out,           &JobInfoT::timed_out>,
    Field<&J::kill_sent,           &JobInfoT::kill_sent>,
    Field<&J::requeue_when_ended,  &JobInfoT::requeue_when_ended>,
    Field<&J::hold_when_requeued,  &JobInfoT::hold_when_requeued>,
    Field<&J::interactive,         &JobInfoT::interactive,        &JobDescT::interactive>,
    Field<&J::mem_per_node_mb,     &JobInfoT::mem_per_node_mb,    &JobDescT::mem_per_node_mb,   &A::req_mem_mb,      &V::mem_per_node_mb>,
    Field<&J::submit_time,         &JobInfoT::submit_time,        nullptr,                      &A::submit_time,     &V::submit_time>,
    Field<&J::eligible_time,       &JobInfoT::eligible_time,      nullptr,                      &A::eligible_time>,
    Field<&J::start_time,          nullptr,                       nullptr,                      &A::start_time>,
    Field<&J::end_time,            &JobInfoT::end_time,           nullptr,                      &A::end_time>,
    Field<&J::name,                &JobInfoT::name,               nullptr,                      &A::name,            &V::name>,
    Field<&J::user_name,           &JobInfoT::user_name>,
    Field<&J::partition,           &JobInfoT::partition,          nullptr,                      &A::partition,       &V::partition>,
    Field<&J::account,             &JobInfoT::account,            &JobDescT::account,           &A::account>,
    Field<&J::reason,              &JobInfoT::state_reason>,
    Field<&J::work_dir,            &JobInfoT::work_dir,           nullptr,                      &A::work_dir>,
    Field<&J::std_out,             &JobInfoT::std_out>,
    Field<&J::std_err,             &JobInfoT::std_err>,
    Field<&J::std_in,              &JobInfoT::std_in>,
    Field<&J::submit_host,         &JobInfoT::submit_host,        &JobDescT::submit_host>,
    Field<&J::comment,             &JobInfoT::comment,            &JobDescT::comment,           &A::comment>,
    Field<&J::command,             &JobInfoT::command>,
    Field<&J::mem_per_cpu_mb,      &JobInfoT::mem_per_cpu_mb,     &JobDescT::mem_per_cpu_mb,    nullptr,             &V::mem_per_cpu_mb>,
    Field<&J::tmp_disk_mb,         &JobInfoT::tmp_disk_mb,        &JobDescT::tmp_disk_mb,       nullptr,             &V::tmp_disk_mb>,
    Field<&J::ntasks_per_node,     &JobInfoT::ntasks_per_node,    &JobDescT::ntasks_per_node,   nullptr,             &V::ntasks_per_node>,
    Field<&J::min_cpus_per_node,   &JobInfoT::min_cpus_per_node,  &JobDescT::min_cpus_per_node, nullptr,             &V::min_cpus_per_node>,
    Field<&J::share,               &JobInfoT::share,              nullptr,                      nullptr,             &V::share>,
    Field<&J::nice,                &JobInfoT::nice>,
    Field<&J::contiguous,          &JobInfoT::contiguous,         &JobDescT::contiguous,        nullptr,             &V::contiguous>,
    Field<&J::kill_on_invalid_dep, &JobInfoT::kill_on_invalid_dep>,
    Field<&J::state_flags,         &JobInfoT::state_flags>,
    Field<&J::array_job_id,        &JobInfoT::array_job_id>,
    Field<&J::qos,                 &JobInfoT::qos,                &JobDescT::qos,               &A::qos,             &V::qos>,
    Field<&J::array_task_id,       &JobInfoT::array_task_id,      nullptr,                      &A::array_task_id>,
    // JobExtra: the requests most jobs never make.
    Field<&X::gres,                &JobInfoT::gres,               &JobDescT::gres,              nullptr,             &V::gres>,
    Field<&X::constraint,          &JobInfoT::constraint,         &JobDescT::constraint,        nullptr,             &V::constraint>,
    Field<&X::req_nodes,           &JobInfoT::req_nodes,          &JobDescT::req_nodes>,
    Field<&X::exc_nodes,           &JobInfoT::exc_nodes,          &JobDescT::exc_nodes>,
    Field<&X::signal,              &JobInfoT::signal,             &JobDescT::signal>,
    Field<&X::gpus,                &JobInfoT::gpus,               &JobDescT::gpus,              nullptr,             &V::gpus>,
    Field<&X::gpus_per_node,       &JobInfoT::gpus_per_node,      &JobDescT::gpus_per_node,     nullptr,             &V::gpus_per_node>,
    Field<&X::gpus_per_task,       &JobInfoT::gpus_per_task,      &JobDescT::gpus_per_task,     nullptr,             &V::gpus_per_task>,
    Field<&X::deadline,            &JobInfoT::deadline,           &JobDescT::deadline>,
    Field<&X::signal_sent,         &JobInfoT::signal_sent>,
    Field<&X::orig_dependency,     &JobInfoT::orig_dependency>,
    Field<&X::gpu_bind,            &JobInfoT::gpu_bind,           &JobDescT::gpu_bind>,
    Field<&X::overcommit,          &JobInfoT::overcommit,         &JobDescT::overcommit>,
    Field<&X::licenses,            &JobInfoT::licenses,           &JobDescT::licenses>,
    Field<&X::reservation,         &JobInfoT::reservation,        &JobDescT::reservation>,
    Field<&X::suspend_time,        &JobInfoT::suspend_time>,
    Field<&X::pre_suspend_secs,    &JobInfoT::pre_suspend_secs>,
    Field<&X::suspended_by_preemption, &JobInfoT::suspended_by_preemption>,
    Field<&X::fed_clusters,        &JobInfoT::fed_clusters,       &JobDescT::clusters>,
    Field<&X::cluster_features,    &JobInfoT::cluster_features,   &JobDescT::cluster_features>,
    Field<&X::siblings_viable,     &JobInfoT::siblings_viable>,
    Field<&X::siblings_active,     &JobInfoT::siblings_active>,
    Field<&X::cluster_lock,        &JobInfoT::cluster_lock>,
    Field<&X::het_job_id,          &JobInfoT::het_job_id,         nullptr,                      &A::het_job_id>,
    Field<&X::het_job_offset,      &JobInfoT::het_job_offset,     nullptr,                      &A::het_job_offset>,
    Field<&X::het_size,            &JobInfoT::het_size>
>;
// clang-format on

// The record's and the submission's fields the table gives; the rest are job_record.cpp's and
// job_submit.cpp's. from_info and from_desc return whether any JobExtra field was set (the job
// then needs its JobExtra).
void to_info(const Job &job, JobInfoT &out);
bool from_info(const JobInfoT &in, Job &job, JobExtra &extra);
bool from_desc(const JobDescT &in, Job &job, JobExtra &extra);
// The submission's fields the table gives, as the job has them now.
void to_desc(const Job &job, JobDescT &out);

// The job's accounting record; node_list names its nodes.
AcctRecord acct_record(const Job &job, std::string node_list);
// The job as plugins see it. OWNERSHIP: the view's strings and bitmaps borrow from job.
drover_job_view job_view(const Job &job);

} // namespace drover::ctld::codec
