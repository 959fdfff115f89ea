// step_record.cpp - Step <-> StepRecord.
#include "ctld/steps/step_record.hpp"

#include "proto/fb_read.hpp"

#include "net/usage_codec.hpp"

namespace drover::ctld {

namespace {

using proto::str;
using proto::vec;

} // namespace

flatbuffers::Offset<proto::StepRecord> write_step_record(flatbuffers::FlatBufferBuilder &fbb,
                                                         const Step &st) {
    auto name = fbb.CreateString(st.name);
    auto command = fbb.CreateString(st.command);
    auto host = fbb.CreateString(st.submit_host);
    auto nodes = fbb.CreateVector(st.nodes);
    auto cpus = fbb.CreateVector(st.cpus);
    std::vector<flatbuffers::Offset<proto::StepSlots>> slot_offs;
    for (const auto &held : st.slots)
        slot_offs.push_back(proto::CreateStepSlots(fbb, fbb.CreateVector(held)));
    auto slots = fbb.CreateVector(slot_offs);
    std::vector<flatbuffers::Offset<proto::StepSlots>> gpu_offs;
    for (const auto &held : st.gpus)
        gpu_offs.push_back(proto::CreateStepSlots(fbb, fbb.CreateVector(held)));
    auto gpus = fbb.CreateVector(gpu_offs);
    auto tpn = fbb.CreateVector(st.tasks_per_node);
    auto reporting = fbb.CreateVector(st.reporting);
    auto usage = net::usage_to_proto(fbb, st.usage);
    proto::StepRecordBuilder b(fbb);
    b.add_job_id(st.job_id);
    b.add_step_id(st.id);
    b.add_uid(st.uid);
    b.add_name(name);
    b.add_command(command);
    b.add_submit_host(host);
    b.add_nodes(nodes);
    b.add_cpus(cpus);
    b.add_slots(slots);
    b.add_tasks_per_node(tpn);
    b.add_num_tasks(st.num_tasks);
    b.add_cpus_per_task(st.cpus_per_task);
    b.add_mem_per_node_mb(st.mem_per_node_mb);
    b.add_start_time(st.start_time);
    b.add_time_limit_min(st.time_limit_min);
    b.add_reporting(reporting);
    b.add_exit_status(st.exit_status);
    b.add_end_state(st.end_state);
    b.add_cancelled_by(st.cancelled_by);
    b.add_kill_sent(st.kill_sent);
    b.add_signal_num(st.signal_num);
    b.add_signal_secs(st.signal_secs);
    b.add_signal_sent(st.signal_sent);
    b.add_usage(usage);
    b.add_gpus(gpus);
    return b.Finish();
}

Step read_step_record(const proto::StepRecord &r) {
    Step st;
    st.job_id = r.job_id();
    st.id = r.step_id();
    st.uid = r.uid();
    st.name = str(r.name());
    st.command = str(r.command());
    st.submit_host = str(r.submit_host());
    st.nodes = vec(r.nodes());
    st.cpus = vec(r.cpus());
    if (r.slots())
        for (const auto *held : *r.slots()) st.slots.push_back(vec(held->slots()));
    st.slots.resize(st.nodes.size());
    if (r.gpus())
        for (const auto *held : *r.gpus()) st.gpus.push_back(vec(held->slots()));
    st.tasks_per_node = vec(r.tasks_per_node());
    st.num_tasks = r.num_tasks();
    st.cpus_per_task = r.cpus_per_task();
    st.mem_per_node_mb = r.mem_per_node_mb();
    st.start_time = r.start_time();
    st.time_limit_min = r.time_limit_min();
    st.reporting = vec(r.reporting());
    st.exit_status = r.exit_status();
    st.end_state = r.end_state();
    st.cancelled_by = r.cancelled_by();
    st.kill_sent = r.kill_sent();
    st.signal_num = r.signal_num();
    st.signal_secs = r.signal_secs();
    st.signal_sent = r.signal_sent();
    if (r.usage()) st.usage = net::usage_from_proto(*r.usage());
    return st;
}

} // namespace drover::ctld
