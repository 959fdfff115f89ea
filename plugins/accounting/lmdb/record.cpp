// record.cpp - packs and unpacks accounting records (format in record.hpp).
#include "record.hpp"

#include "codec.hpp"

#include <cstring>

namespace drover::acct_lmdb {

namespace {

constexpr uint8_t kVersion = 5;

} // namespace

Record Record::from(const drover_acct_job &in) {
    Record r;
    // A newer core may pass a longer struct, an older one a shorter: read our common prefix.
    const size_t n = in.struct_size < sizeof r.job ? in.struct_size : sizeof r.job;
    std::memcpy(&r.job, &in, n);
    r.job.struct_size = sizeof r.job;
    r.cluster = copy(r.job.cluster);
    r.name = copy(r.job.name);
    r.partition = copy(r.job.partition);
    r.account = copy(r.job.account);
    r.node_list = copy(r.job.node_list);
    r.work_dir = copy(r.job.work_dir);
    r.comment = copy(r.job.comment);
    r.qos = copy(r.job.qos);
    r.alloc_gres = copy(r.job.alloc_gres);
    for (drover_str *s :
         {&r.job.cluster, &r.job.name, &r.job.partition, &r.job.account, &r.job.node_list,
          &r.job.work_dir, &r.job.comment, &r.job.qos, &r.job.alloc_gres})
        *s = drover_str{nullptr, 0}; // the caller's, gone after the call
    return r;
}

drover_acct_job Record::view() const {
    auto str = [](const std::string &s) { return drover_str{s.data(), s.size()}; };
    drover_acct_job v = job;
    v.cluster = str(cluster);
    v.name = str(name);
    v.partition = str(partition);
    v.account = str(account);
    v.node_list = str(node_list);
    v.work_dir = str(work_dir);
    v.comment = str(comment);
    v.qos = str(qos);
    v.alloc_gres = str(alloc_gres);
    return v;
}

std::string Record::pack() const {
    Writer w;
    w.u8(kVersion);
    for (uint32_t v :
         {job.job_id, job.user_id, job.group_id, job.alloc_nodes, job.alloc_cpus, job.req_cpus})
        w.u32(v);
    w.u64(job.req_mem_mb);
    w.u32(job.state);
    w.u32(static_cast<uint32_t>(job.exit_status));
    w.u32(job.time_limit_min);
    for (int64_t t : {job.submit_time, job.eligible_time, job.start_time, job.end_time})
        w.u64(static_cast<uint64_t>(t));
    w.u32(job.cancelled_by);
    for (const std::string *s : {&cluster, &name, &partition, &account, &node_list, &work_dir})
        w.str(drover_str{s->data(), s->size()});
    w.u32(job.array_job_id);
    w.u32(job.array_task_id);
    w.str(drover_str{comment.data(), comment.size()});
    w.str(drover_str{qos.data(), qos.size()});
    w.str(drover_str{alloc_gres.data(), alloc_gres.size()});
    w.u32(job.het_job_id);
    w.u32(job.het_job_offset);
    return w.take();
}

std::optional<Record> Record::unpack(std::string_view bytes) {
    Reader r(bytes);
    const uint8_t version = r.u8();
    if (version < 1 || version > kVersion) return std::nullopt;
    Record rec;
    drover_acct_job &j = rec.job;
    j.struct_size = sizeof j;
    for (uint32_t *v :
         {&j.job_id, &j.user_id, &j.group_id, &j.alloc_nodes, &j.alloc_cpus, &j.req_cpus})
        *v = r.u32();
    j.req_mem_mb = r.u64();
    j.state = r.u32();
    j.exit_status = static_cast<int32_t>(r.u32());
    j.time_limit_min = r.u32();
    for (int64_t *t : {&j.submit_time, &j.eligible_time, &j.start_time, &j.end_time})
        *t = static_cast<int64_t>(r.u64());
    j.cancelled_by = r.u32();
    for (std::string *s :
         {&rec.cluster, &rec.name, &rec.partition, &rec.account, &rec.node_list, &rec.work_dir})
        *s = r.str();
    j.array_task_id = DROVER_NO_VAL;
    if (version >= 2) {
        j.array_job_id = r.u32();
        j.array_task_id = r.u32();
        rec.comment = r.str();
    }
    if (version >= 3) rec.qos = r.str();
    if (version >= 4) rec.alloc_gres = r.str();
    j.het_job_offset = DROVER_NO_VAL;
    if (version >= 5) {
        j.het_job_id = r.u32();
        j.het_job_offset = r.u32();
    }
    if (!r.ok()) return std::nullopt;
    return rec;
}

} // namespace drover::acct_lmdb
