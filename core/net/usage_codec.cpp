// usage_codec.cpp - field by field, both ways.
#include "net/usage_codec.hpp"

#include "proto/fb_read.hpp"

namespace drover::net {

flatbuffers::Offset<proto::StepUsage> usage_to_proto(flatbuffers::FlatBufferBuilder &fbb,
                                                     const StepUsageSummary &u) {
    return proto::CreateStepUsageDirect(
        fbb, u.max_rss, u.max_rss_node.c_str(), u.max_rss_task, u.ave_rss, u.max_vsize,
        u.max_vsize_node.c_str(), u.max_vsize_task, u.ave_vsize, u.min_cpu_usec,
        u.min_cpu_node.c_str(), u.min_cpu_task, u.ave_cpu_usec, u.user_cpu_usec, u.sys_cpu_usec,
        u.max_disk_read, u.max_disk_read_node.c_str(), u.max_disk_read_task, u.ave_disk_read,
        u.max_disk_write, u.max_disk_write_node.c_str(), u.max_disk_write_task, u.ave_disk_write,
        u.tasks, u.oom_kills);
}

StepUsageSummary usage_from_proto(const proto::StepUsage &p) {
    StepUsageSummary u;
    u.max_rss = p.max_rss();
    u.max_rss_node = proto::str(p.max_rss_node());
    u.max_rss_task = p.max_rss_task();
    u.ave_rss = p.ave_rss();
    u.max_vsize = p.max_vsize();
    u.max_vsize_node = proto::str(p.max_vsize_node());
    u.max_vsize_task = p.max_vsize_task();
    u.ave_vsize = p.ave_vsize();
    u.min_cpu_usec = p.min_cpu_usec();
    u.min_cpu_node = proto::str(p.min_cpu_node());
    u.min_cpu_task = p.min_cpu_task();
    u.ave_cpu_usec = p.ave_cpu_usec();
    u.user_cpu_usec = p.user_cpu_usec();
    u.sys_cpu_usec = p.sys_cpu_usec();
    u.max_disk_read = p.max_disk_read();
    u.max_disk_read_node = proto::str(p.max_disk_read_node());
    u.max_disk_read_task = p.max_disk_read_task();
    u.ave_disk_read = p.ave_disk_read();
    u.max_disk_write = p.max_disk_write();
    u.max_disk_write_node = proto::str(p.max_disk_write_node());
    u.max_disk_write_task = p.max_disk_write_task();
    u.ave_disk_write = p.ave_disk_write();
    u.tasks = p.tasks();
    u.oom_kills = p.oom_kills();
    return u;
}

} // namespace drover::net
