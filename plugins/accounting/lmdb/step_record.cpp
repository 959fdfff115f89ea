// step_record.cpp - packs and unpacks step records (format in step_record.hpp).
#include "step_record.hpp"

#include <algorithm>
#include <cstring>

#include "codec.hpp"

namespace drover::acct_lmdb {

namespace {

constexpr uint8_t kVersion = 1;

// The members in packed order; one list for both directions.
template <class F32, class F64, class FStr>
void members(StepRecord &rec, F32 &&u32, F64 &&u64, FStr &&str) {
    auto &s = rec.step;
    for (auto *v : {&s.job_id, &s.step_id, &s.nodes, &s.tasks, &s.cpus, &s.state}) u32(*v);
    u32(reinterpret_cast<uint32_t &>(s.exit_status));
    u32(s.cancelled_by);
    u32(s.max_rss_task);
    u64(s.req_mem_mb);
    u64(reinterpret_cast<uint64_t &>(s.start_time));
    u64(reinterpret_cast<uint64_t &>(s.end_time));
    for (auto *v : {&s.max_rss, &s.ave_rss, &s.max_vsize, &s.ave_vsize, &s.ave_cpu_usec,
                    &s.min_cpu_usec, &s.user_cpu_usec, &s.sys_cpu_usec, &s.max_disk_read,
                    &s.max_disk_write, &s.ave_disk_read, &s.ave_disk_write})
        u64(*v);
    for (auto *v : {&rec.name, &rec.node_list, &rec.max_rss_node, &rec.max_vsize_node,
                    &rec.max_disk_read_node, &rec.max_disk_write_node, &rec.tres_alloc})
        str(*v);
}

} // namespace

StepRecord StepRecord::from(const drover_acct_step &in) {
    StepRecord r;
    // A newer core may pass a longer struct, an older one a shorter: read our common prefix.
    std::memcpy(&r.step, &in, std::min<size_t>(in.struct_size, sizeof r.step));
    r.step.struct_size = sizeof r.step;
    drover_acct_step &s = r.step;
    r.name = copy(s.name);
    r.node_list = copy(s.node_list);
    r.max_rss_node = copy(s.max_rss_node);
    r.max_vsize_node = copy(s.max_vsize_node);
    r.max_disk_read_node = copy(s.max_disk_read_node);
    r.max_disk_write_node = copy(s.max_disk_write_node);
    r.tres_alloc = copy(s.tres_alloc);
    for (drover_str *v : {&s.name, &s.node_list, &s.max_rss_node, &s.max_vsize_node,
                          &s.max_disk_read_node, &s.max_disk_write_node, &s.tres_alloc})
        *v = drover_str{nullptr, 0}; // the caller's, gone after the call
    return r;
}

drover_acct_step StepRecord::view() const {
    auto str = [](const std::string &v) { return drover_str{v.data(), v.size()}; };
    drover_acct_step v = step;
    v.name = str(name);
    v.node_list = str(node_list);
    v.max_rss_node = str(max_rss_node);
    v.max_vsize_node = str(max_vsize_node);
    v.max_disk_read_node = str(max_disk_read_node);
    v.max_disk_write_node = str(max_disk_write_node);
    v.tres_alloc = str(tres_alloc);
    return v;
}

std::string StepRecord::pack() const {
    Writer w;
    w.u8(kVersion);
    StepRecord self = *this; // members() hands out references it could write through
    members(
        self, [&](uint32_t v) { w.u32(v); }, [&](uint64_t v) { w.u64(v); },
        [&](const std::string &v) {
            w.str(drover_str{v.data(), v.size()});
        });
    return w.take();
}

std::optional<StepRecord> StepRecord::unpack(std::string_view bytes) {
    Reader r(bytes);
    if (r.u8() != kVersion) return std::nullopt;
    StepRecord rec;
    rec.step.struct_size = sizeof rec.step;
    members(
        rec, [&](uint32_t &v) { v = r.u32(); }, [&](uint64_t &v) { v = r.u64(); },
        [&](std::string &v) { v = r.str(); });
    if (!r.ok()) return std::nullopt;
    return rec;
}

} // namespace drover::acct_lmdb
