// acct_spool.cpp - job, step and node event accounting records to and from their spooled bytes,
// and the answers to queries.
#include "ctld/acct/acct_spool.hpp"

#include "proto/fb_read.hpp"

#include <algorithm>
#include <cstring>
#include <variant>

#include "ctld/acct/acct_records.hpp"
#include "plugin/cstr.hpp"

namespace drover::ctld {

namespace {

std::vector<uint8_t> with_event(int event, const flatbuffers::FlatBufferBuilder &fbb) {
    std::vector<uint8_t> out(1 + fbb.GetSize());
    out[0] = uint8_t(event);
    std::memcpy(out.data() + 1, fbb.GetBufferPointer(), fbb.GetSize());
    return out;
}

bool job_event(int event) {
    return event >= DROVER_ACCT_JOB_SUBMIT && event <= DROVER_ACCT_JOB_END;
}
bool step_event(int event) {
    return event == DROVER_ACCT_STEP_START || event == DROVER_ACCT_STEP_END;
}

// The table after the event byte, verified; nullptr when damaged. buf keeps it aligned.
template <class T>
const T *verified(const uint8_t *data, std::size_t len, std::vector<uint8_t> &buf) {
    if (len < 2) return nullptr;
    buf.assign(data + 1, data + len);
    flatbuffers::Verifier v(buf.data(), buf.size());
    if (!v.VerifyBuffer<T>(nullptr)) return nullptr;
    return flatbuffers::GetRoot<T>(buf.data());
}

} // namespace

drover_acct_step acct_step_view(const AcctStepRecord &r) {
    drover_acct_step s{};
    s.struct_size = sizeof s;
    s.job_id = r.job_id;
    s.step_id = r.step_id;
    s.name = plugin::cstr(r.name);
    s.node_list = plugin::cstr(r.node_list);
    s.nodes = r.nodes;
    s.tasks = r.tasks;
    s.cpus = r.cpus;
    s.req_mem_mb = r.req_mem_mb;
    s.state = r.state;
    s.exit_status = r.exit_status;
    s.start_time = r.start_time;
    s.end_time = r.end_time;
    s.cancelled_by = r.cancelled_by;
    s.max_rss_task = r.max_rss_task;
    s.max_rss = r.max_rss;
    s.ave_rss = r.ave_rss;
    s.max_rss_node = plugin::cstr(r.max_rss_node);
    s.max_vsize = r.max_vsize;
    s.ave_vsize = r.ave_vsize;
    s.max_vsize_node = plugin::cstr(r.max_vsize_node);
    s.ave_cpu_usec = r.ave_cpu_usec;
    s.user_cpu_usec = r.user_cpu_usec;
    s.sys_cpu_usec = r.sys_cpu_usec;
    s.max_disk_read = r.max_disk_read;
    s.max_disk_write = r.max_disk_write;
    s.max_disk_read_node = plugin::cstr(r.max_disk_read_node);
    s.max_disk_write_node = plugin::cstr(r.max_disk_write_node);
    s.tres_alloc = plugin::cstr(r.tres_alloc);
    s.min_cpu_usec = r.min_cpu_usec;
    s.ave_disk_read = r.ave_disk_read;
    s.ave_disk_write = r.ave_disk_write;
    return s;
}

flatbuffers::Offset<proto::AcctStep> build_acct_step(flatbuffers::FlatBufferBuilder &b,
                                                     const drover_acct_step &s) {
    auto str = [&](drover_str v) { return b.CreateString(v.ptr ? v.ptr : "", v.len); };
    auto name = str(s.name), nodes = str(s.node_list), rss_node = str(s.max_rss_node),
         vsize_node = str(s.max_vsize_node), read_node = str(s.max_disk_read_node),
         write_node = str(s.max_disk_write_node), tres = str(s.tres_alloc);
    bool tail = DROVER_HAS(drover_acct_step, &s, ave_disk_write);
    return proto::CreateAcctStep(
        b, s.job_id, s.step_id, name, nodes, s.nodes, s.tasks, s.cpus, s.req_mem_mb, s.state,
        s.exit_status, s.start_time, s.end_time, s.cancelled_by, s.max_rss_task, s.max_rss,
        s.ave_rss, rss_node, s.max_vsize, s.ave_vsize, vsize_node, s.ave_cpu_usec, s.user_cpu_usec,
        s.sys_cpu_usec, s.max_disk_read, s.max_disk_write, read_node, write_node, tres,
        tail ? s.min_cpu_usec : 0, tail ? s.ave_disk_read : 0, tail ? s.ave_disk_write : 0);
}

drover_acct_node_event acct_node_event_view(const AcctNodeEvent &r, const std::string &cluster) {
    drover_acct_node_event ev{};
    ev.struct_size = sizeof ev;
    ev.state = r.state;
    ev.flags = r.flags;
    ev.reason_uid = r.reason_uid;
    ev.cluster = plugin::cstr(cluster);
    ev.node_name = plugin::cstr(r.node_name);
    ev.reason = plugin::cstr(r.reason);
    ev.start_time = r.start_time;
    ev.end_time = r.end_time;
    return ev;
}

flatbuffers::Offset<proto::AcctNodeEvent> build_acct_node_event(flatbuffers::FlatBufferBuilder &b,
                                                                const drover_acct_node_event &in) {
    drover_acct_node_event ev{};
    std::memcpy(&ev, &in, std::min<std::size_t>(in.struct_size, sizeof ev));
    auto str = [&](drover_str v) { return b.CreateString(v.ptr ? v.ptr : "", v.len); };
    auto cluster = str(ev.cluster), node = str(ev.node_name), reason = str(ev.reason);
    return proto::CreateAcctNodeEvent(b, cluster, node, ev.state, ev.flags, reason, ev.reason_uid,
                                      ev.start_time, ev.end_time);
}

namespace {

void build(flatbuffers::FlatBufferBuilder &fbb, const AcctRecord &r) {
    auto str = [&](const std::string &v) { return fbb.CreateString(v); };
    auto name = str(r.name), part = str(r.partition), acct = str(r.account),
         nodes = str(r.node_list), wd = str(r.work_dir), comment = str(r.comment), qos = str(r.qos);
    fbb.Finish(proto::CreateAcctJob(fbb, r.job_id, r.uid, r.gid, 0, name, part, acct, nodes, wd,
                                    r.alloc_nodes, r.alloc_cpus, r.req_cpus, r.req_mem_mb, r.state,
                                    r.exit_status, r.time_limit_min, r.submit_time, r.eligible_time,
                                    r.start_time, r.end_time, r.cancelled_by, r.array_job_id,
                                    r.array_task_id, comment, 0, qos));
}

void build(flatbuffers::FlatBufferBuilder &fbb, const AcctStepRecord &r) {
    fbb.Finish(build_acct_step(fbb, acct_step_view(r)));
}

void build(flatbuffers::FlatBufferBuilder &fbb, const AcctNodeEvent &r) {
    fbb.Finish(build_acct_node_event(fbb, acct_node_event_view(r, {})));
}

void read(const proto::AcctJob &j, AcctRecord *r) {
    r->job_id = j.job_id();
    r->uid = j.user_id();
    r->gid = j.group_id();
    r->name = proto::str(j.name());
    r->partition = proto::str(j.partition());
    r->account = proto::str(j.account());
    r->node_list = proto::str(j.node_list());
    r->work_dir = proto::str(j.work_dir());
    r->alloc_nodes = j.alloc_nodes();
    r->alloc_cpus = j.alloc_cpus();
    r->req_cpus = j.req_cpus();
    r->req_mem_mb = j.req_mem_mb();
    r->state = j.state();
    r->exit_status = j.exit_status();
    r->time_limit_min = j.time_limit_min();
    r->submit_time = j.submit_time();
    r->eligible_time = j.eligible_time();
    r->start_time = j.start_time();
    r->end_time = j.end_time();
    r->cancelled_by = j.cancelled_by();
    r->array_job_id = j.array_job_id();
    r->array_task_id = j.array_task_id();
    r->comment = proto::str(j.comment());
    r->qos = proto::str(j.qos());
}

void read(const proto::AcctStep &s, AcctStepRecord *r) {
    r->job_id = s.job_id();
    r->step_id = s.step_id();
    r->name = proto::str(s.name());
    r->node_list = proto::str(s.node_list());
    r->nodes = s.nodes();
    r->tasks = s.tasks();
    r->cpus = s.cpus();
    r->req_mem_mb = s.req_mem_mb();
    r->state = s.state();
    r->exit_status = s.exit_status();
    r->start_time = s.start_time();
    r->end_time = s.end_time();
    r->cancelled_by = s.cancelled_by();
    r->max_rss_task = s.max_rss_task();
    r->max_rss = s.max_rss();
    r->ave_rss = s.ave_rss();
    r->max_rss_node = proto::str(s.max_rss_node());
    r->max_vsize = s.max_vsize();
    r->ave_vsize = s.ave_vsize();
    r->max_vsize_node = proto::str(s.max_vsize_node());
    r->ave_cpu_usec = s.ave_cpu_usec();
    r->min_cpu_usec = s.min_cpu_usec();
    r->user_cpu_usec = s.user_cpu_usec();
    r->sys_cpu_usec = s.sys_cpu_usec();
    r->max_disk_read = s.max_disk_read();
    r->max_disk_write = s.max_disk_write();
    r->ave_disk_read = s.ave_disk_read();
    r->ave_disk_write = s.ave_disk_write();
    r->max_disk_read_node = proto::str(s.max_disk_read_node());
    r->max_disk_write_node = proto::str(s.max_disk_write_node());
    r->tres_alloc = proto::str(s.tres_alloc());
}

void read(const proto::AcctNodeEvent &e, AcctNodeEvent *r) {
    r->node_name = proto::str(e.node_name());
    r->state = e.state();
    r->flags = e.flags();
    r->reason = proto::str(e.reason());
    r->reason_uid = e.reason_uid();
    r->start_time = e.start_time();
    r->end_time = e.end_time();
}

// The record the bytes after the event byte hold, verified; false when damaged.
template <class Table, class Rec>
bool decode_as(const uint8_t *data, std::size_t len, AcctPayload *out) {
    std::vector<uint8_t> buf;
    const auto *t = verified<Table>(data, len, buf);
    if (!t) return false;
    Rec r;
    read(*t, &r);
    *out = std::move(r);
    return true;
}

} // namespace

std::vector<uint8_t> encode_acct(int event, const AcctPayload &r) {
    flatbuffers::FlatBufferBuilder fbb(256);
    std::visit([&](const auto &rec) { build(fbb, rec); }, r);
    return with_event(event, fbb);
}

bool decode_acct(const uint8_t *data, std::size_t len, int *event, AcctPayload *r) {
    if (len < 1) return false;
    const int ev = data[0];
    bool ok = job_event(ev)    ? decode_as<proto::AcctJob, AcctRecord>(data, len, r)
              : step_event(ev) ? decode_as<proto::AcctStep, AcctStepRecord>(data, len, r)
              : ev == kAcctNodeEventCode
                  ? decode_as<proto::AcctNodeEvent, AcctNodeEvent>(data, len, r)
                  : false;
    if (ok) *event = ev;
    return ok;
}

void AcctResponseBuilder::job(const drover_acct_job &in) {
    flush();
    // Members past the plugin's struct_size were not written by it: read them as 0.
    job_ = drover_acct_job{};
    std::memcpy(&job_, &in, std::min<std::size_t>(in.struct_size, sizeof job_));
    if (!DROVER_HAS(drover_acct_job, &in, comment)) job_.array_task_id = DROVER_NO_VAL;
    auto str = [&](drover_str v) { return fbb_.CreateString(v.ptr ? v.ptr : "", v.len); };
    cluster_ = str(job_.cluster);
    name_ = str(job_.name);
    part_ = str(job_.partition);
    acct_ = str(job_.account);
    nodes_ = str(job_.node_list);
    wd_ = str(job_.work_dir);
    comment_ = str(job_.comment);
    qos_ = str(job_.qos);
    pending_ = true;
}

void AcctResponseBuilder::step(const drover_acct_step &s) {
    if (!pending_ || s.job_id != job_.job_id) return;
    steps_.push_back(build_acct_step(fbb_, s));
}

void AcctResponseBuilder::flush() {
    if (!pending_) return;
    const drover_acct_job &j = job_;
    auto steps = steps_.empty() ? 0 : fbb_.CreateVector(steps_);
    rows_.push_back(proto::CreateAcctJob(
        fbb_, j.job_id, j.user_id, j.group_id, cluster_, name_, part_, acct_, nodes_, wd_,
        j.alloc_nodes, j.alloc_cpus, j.req_cpus, j.req_mem_mb, j.state, j.exit_status,
        j.time_limit_min, j.submit_time, j.eligible_time, j.start_time, j.end_time, j.cancelled_by,
        j.array_job_id, j.array_task_id, comment_, steps, qos_));
    steps_.clear();
    pending_ = false;
}

std::vector<uint8_t> AcctEventResponseBuilder::finish() {
    auto v = fbb_.CreateVector(rows_);
    fbb_.Finish(proto::CreateMessage(fbb_, proto::Body::AcctEventQueryResponse,
                                     proto::CreateAcctEventQueryResponse(fbb_, v).Union()));
    return {fbb_.GetBufferPointer(), fbb_.GetBufferPointer() + fbb_.GetSize()};
}

std::vector<uint8_t> AcctResponseBuilder::finish() {
    flush();
    auto v = fbb_.CreateVector(rows_);
    fbb_.Finish(proto::CreateMessage(fbb_, proto::Body::AcctQueryResponse,
                                     proto::CreateAcctQueryResponse(fbb_, v).Union()));
    return {fbb_.GetBufferPointer(), fbb_.GetBufferPointer() + fbb_.GetSize()};
}

} // namespace drover::ctld
