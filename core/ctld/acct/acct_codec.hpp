// acct_codec.hpp - the one table per accounting record of its fields and the plugin ABI member
// each goes to. The records are the FlatBuffers object API's types of acct.fbs (AcctJobT,
// AcctStepT, AcctNodeEventT), so the spool and a query's answer pack and unpack them whole; the
// tables below copy them to and from the structs the accounting plugins see. A new field is one
// line here, besides its schema field, its ABI member and its use.
#pragma once

#include <drover/accounting.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "plugin/field_table.hpp"
#include "proto/message_generated.h"

namespace drover::ctld::acct_codec {

template <auto Rec, auto View>
struct Pair {
    static constexpr auto rec = Rec, view = View;
};

using proto::AcctJobT, proto::AcctStepT, proto::AcctNodeEventT;
using J = drover_acct_job;
using S = drover_acct_step;
using E = drover_acct_node_event;

// clang-format off
using JobPairs = plugin::FieldTable<
    Pair<&AcctJobT::job_id, &J::job_id>,                 Pair<&AcctJobT::user_id, &J::user_id>,
    Pair<&AcctJobT::group_id, &J::group_id>,             Pair<&AcctJobT::cluster, &J::cluster>,
    Pair<&AcctJobT::name, &J::name>,                     Pair<&AcctJobT::partition, &J::partition>,
    Pair<&AcctJobT::account, &J::account>,               Pair<&AcctJobT::node_list, &J::node_list>,
    Pair<&AcctJobT::work_dir, &J::work_dir>,             Pair<&AcctJobT::alloc_nodes, &J::alloc_nodes>,
    Pair<&AcctJobT::alloc_cpus, &J::alloc_cpus>,         Pair<&AcctJobT::req_cpus, &J::req_cpus>,
    Pair<&AcctJobT::req_mem_mb, &J::req_mem_mb>,         Pair<&AcctJobT::state, &J::state>,
    Pair<&AcctJobT::exit_status, &J::exit_status>,       Pair<&AcctJobT::time_limit_min, &J::time_limit_min>,
    Pair<&AcctJobT::submit_time, &J::submit_time>,       Pair<&AcctJobT::eligible_time, &J::eligible_time>,
    Pair<&AcctJobT::start_time, &J::start_time>,         Pair<&AcctJobT::end_time, &J::end_time>,
    Pair<&AcctJobT::cancelled_by, &J::cancelled_by>,     Pair<&AcctJobT::array_job_id, &J::array_job_id>,
    Pair<&AcctJobT::array_task_id, &J::array_task_id>,   Pair<&AcctJobT::comment, &J::comment>,
    Pair<&AcctJobT::qos, &J::qos>,                       Pair<&AcctJobT::alloc_gres, &J::alloc_gres>,
    Pair<&AcctJobT::het_job_id, &J::het_job_id>,         Pair<&AcctJobT::het_job_offset, &J::het_job_offset>>;

using StepPairs = plugin::FieldTable<
    Pair<&AcctStepT::job_id, &S::job_id>,                Pair<&AcctStepT::step_id, &S::step_id>,
    Pair<&AcctStepT::name, &S::name>,                    Pair<&AcctStepT::node_list, &S::node_list>,
    Pair<&AcctStepT::nodes, &S::nodes>,                  Pair<&AcctStepT::tasks, &S::tasks>,
    Pair<&AcctStepT::cpus, &S::cpus>,                    Pair<&AcctStepT::req_mem_mb, &S::req_mem_mb>,
    Pair<&AcctStepT::state, &S::state>,                  Pair<&AcctStepT::exit_status, &S::exit_status>,
    Pair<&AcctStepT::start_time, &S::start_time>,        Pair<&AcctStepT::end_time, &S::end_time>,
    Pair<&AcctStepT::cancelled_by, &S::cancelled_by>,    Pair<&AcctStepT::max_rss_task, &S::max_rss_task>,
    Pair<&AcctStepT::max_rss, &S::max_rss>,              Pair<&AcctStepT::ave_rss, &S::ave_rss>,
    Pair<&AcctStepT::max_rss_node, &S::max_rss_node>,    Pair<&AcctStepT::max_vsize, &S::max_vsize>,
    Pair<&AcctStepT::ave_vsize, &S::ave_vsize>,          Pair<&AcctStepT::max_vsize_node, &S::max_vsize_node>,
    Pair<&AcctStepT::ave_cpu_usec, &S::ave_cpu_usec>,    Pair<&AcctStepT::min_cpu_usec, &S::min_cpu_usec>,
    Pair<&AcctStepT::user_cpu_usec, &S::user_cpu_usec>,  Pair<&AcctStepT::sys_cpu_usec, &S::sys_cpu_usec>,
    Pair<&AcctStepT::max_disk_read, &S::max_disk_read>,  Pair<&AcctStepT::max_disk_write, &S::max_disk_write>,
    Pair<&AcctStepT::ave_disk_read, &S::ave_disk_read>,  Pair<&AcctStepT::ave_disk_write, &S::ave_disk_write>,
    Pair<&AcctStepT::max_disk_read_node, &S::max_disk_read_node>,
    Pair<&AcctStepT::max_disk_write_node, &S::max_disk_write_node>,
    Pair<&AcctStepT::tres_alloc, &S::tres_alloc>>;

using NodeEventPairs = plugin::FieldTable<
    Pair<&AcctNodeEventT::cluster, &E::cluster>,         Pair<&AcctNodeEventT::node_name, &E::node_name>,
    Pair<&AcctNodeEventT::state, &E::state>,             Pair<&AcctNodeEventT::flags, &E::flags>,
    Pair<&AcctNodeEventT::reason, &E::reason>,           Pair<&AcctNodeEventT::reason_uid, &E::reason_uid>,
    Pair<&AcctNodeEventT::start_time, &E::start_time>,   Pair<&AcctNodeEventT::end_time, &E::end_time>>;
// clang-format on

// The record as the plugin ABI passes it. OWNERSHIP: its strings borrow from rec.
template <class P, class Rec, class View>
View to_view(const Rec &rec) {
    View v{};
    v.struct_size = sizeof v;
    P::each([&](auto p) { plugin::convert(rec.*(decltype(p)::rec), v.*(decltype(p)::view)); });
    return v;
}

// The record a plugin handed over: members past its struct_size (an older plugin) read as 0 or
// empty.
template <class P, class Rec, class View>
Rec from_view(const View &given) {
    View v{};
    std::memcpy(&v, &given, std::min<std::size_t>(given.struct_size, sizeof v));
    Rec rec;
    P::each([&](auto p) { plugin::convert(v.*(decltype(p)::view), rec.*(decltype(p)::rec)); });
    return rec;
}

inline drover_acct_job job_view(const AcctJobT &r) {
    return to_view<JobPairs, AcctJobT, drover_acct_job>(r);
}
inline drover_acct_step step_view(const AcctStepT &r) {
    return to_view<StepPairs, AcctStepT, drover_acct_step>(r);
}
inline drover_acct_node_event node_event_view(const AcctNodeEventT &r) {
    return to_view<NodeEventPairs, AcctNodeEventT, drover_acct_node_event>(r);
}

inline AcctJobT job_from(const drover_acct_job &j) {
    AcctJobT r = from_view<JobPairs, AcctJobT>(j);
    // A plugin older than array tasks in the ABI (those came with comment) wrote no task id.
    if (!DROVER_HAS(drover_acct_job, &j, comment)) r.array_task_id = DROVER_NO_VAL;
    if (!r.het_job_id) r.het_job_offset = DROVER_NO_VAL; // not a component (or an older plugin)
    return r;
}
inline AcctStepT step_from(const drover_acct_step &s) {
    return from_view<StepPairs, AcctStepT>(s);
}
inline AcctNodeEventT node_event_from(const drover_acct_node_event &e) {
    return from_view<NodeEventPairs, AcctNodeEventT>(e);
}

} // namespace drover::ctld::acct_codec
