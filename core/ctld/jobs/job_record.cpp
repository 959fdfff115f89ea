// job_record.cpp - Job <-> JobInfo.
#include "ctld/jobs/job_record.hpp"

#include "proto/fb_read.hpp"

#include "common/gres.hpp"
#include "common/hostlist.hpp"
#include "ctld/jobs/job_codec.hpp"
#include "ctld/jobs/job_fields.hpp" // fails to compile when Job gains a member not listed there
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/jobs/job_signal_spec.hpp"

namespace drover::ctld {

const JobExtra &Job::ext() const {
    static const JobExtra kNone;
    return extra ? *extra : kNone;
}

JobExtra &Job::mutable_extra() {
    auto copy = extra ? std::make_shared<JobExtra>(*extra) : std::make_shared<JobExtra>();
    extra = copy;
    return *copy;
}

std::string format_task_list(const std::vector<uint32_t> &ids) {
    std::string out;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
        if (!out.empty()) out += ',';
        out += std::to_string(ids[i]);
        if (j > i) out += '-' + std::to_string(ids[j]);
        i = j + 1;
    }
    return out;
}

std::vector<uint32_t> parse_task_list(const std::string &text) {
    std::vector<uint32_t> out;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find(',', at);
        if (end == std::string::npos) end = text.size();
        std::string part = text.substr(at, end - at);
        at = end + 1;
        auto dash = part.find('-');
        uint32_t lo = uint32_t(std::stoul(part.substr(0, dash)));
        uint32_t hi = dash == std::string::npos ? lo : uint32_t(std::stoul(part.substr(dash + 1)));
        for (uint32_t v = lo; v <= hi && out.size() < (1u << 24); ++v) out.push_back(v);
    }
    return out;
}

const char *job_state_name(uint32_t state) {
    switch (state) {
    case DROVER_JOB_PENDING:
        return "PENDING";
    case DROVER_JOB_RUNNING:
        return "RUNNING";
    case DROVER_JOB_SUSPENDED:
        return "SUSPENDED";
    case DROVER_JOB_COMPLETE:
        return "COMPLETED";
    case DROVER_JOB_CANCELLED:
        return "CANCELLED";
    case DROVER_JOB_FAILED:
        return "FAILED";
    case DROVER_JOB_TIMEOUT:
        return "TIMEOUT";
    case DROVER_JOB_NODE_FAIL:
        return "NODE_FAIL";
    case DROVER_JOB_PREEMPTED:
        return "PREEMPTED";
    case DROVER_JOB_BOOT_FAIL:
        return "BOOT_FAIL";
    case DROVER_JOB_DEADLINE:
        return "DEADLINE";
    case DROVER_JOB_OOM:
        return "OUT_OF_MEMORY";
    default:
        return "UNKNOWN";
    }
}

int64_t job_run_secs(const Job &job, int64_t now) {
    if (job.start_time == 0 || job.pending()) return 0;
    const JobExtra &x = job.ext();
    if (job.state == DROVER_JOB_SUSPENDED) return x.pre_suspend_secs;
    int64_t end = job.running() || job.end_time == 0 ? now : job.end_time;
    // Since the last resume (or the start) plus what it had run before.
    int64_t since = x.suspend_time ? x.suspend_time : job.start_time;
    return x.pre_suspend_secs + std::max<int64_t>(0, end - since);
}

int64_t job_limit_end(const Job &job) {
    if (job.time_limit_min == DROVER_INFINITE || job.state == DROVER_JOB_SUSPENDED ||
        job.configuring())
        return INT64_MAX;
    const JobExtra &x = job.ext();
    int64_t since = x.suspend_time ? x.suspend_time : job.start_time;
    return since - x.pre_suspend_secs + int64_t(job.time_limit_min) * 60;
}

std::vector<uint32_t> job_cpu_ids(const Job &job, std::size_t pos) {
    if (pos < job.node_alloc.size() && !job.node_alloc[pos].cpu_ids.empty()) {
        try {
            return parse_index_list(job.node_alloc[pos].cpu_ids);
        } catch (const std::exception &) {}
    }
    std::vector<uint32_t> ids(pos < job.node_cpus.size() ? job.node_cpus[pos] : 0);
    for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
    return ids;
}

uint64_t job_mem_on(const Job &job, std::size_t pos) {
    if (pos < job.node_alloc.size() && job.node_alloc[pos].mem_mb)
        return job.node_alloc[pos].mem_mb;
    if (job.mem_per_node_mb) return job.mem_per_node_mb;
    if (job.mem_per_cpu_mb && pos < job.node_cpus.size())
        return job.mem_per_cpu_mb * job.node_cpus[pos];
    return 0;
}

namespace {

// The record's fields JobCodec does not copy as they are: nodes by name, the array's tasks,
// the pending job's forecast start, the output paths as shown.
void write_special(const Job &j, proto::JobInfoT &t, const NodeNamer &names, bool display) {
    std::string batch_host = j.nodes.empty() ? std::string() : names({j.nodes.front()});
    auto path = [&](const std::string &p) {
        return display && !p.empty() ? expand_output_path(p, j, batch_host) : p;
    };
    t.std_out = path(j.std_out);
    t.std_err = path(j.std_err.empty() && display ? j.std_out : j.std_err);
    t.std_in = path(j.std_in);
    t.held = uint32_t(j.hold);
    // Shown as SPECIAL_EXIT while it waits held (the CLI reads Slurm's bit beside the state).
    if (display && j.pending() && (j.state_flags & DROVER_JOB_FLAG_SPECIAL_EXIT))
        t.state |= DROVER_JOB_FLAG_SPECIAL_EXIT;
    if (display && j.running() && j.configuring()) t.state |= DROVER_JOB_FLAG_CONFIGURING;
    if (display && (j.state_flags & DROVER_JOB_FLAG_REVOKED)) t.state |= DROVER_JOB_FLAG_REVOKED;
    t.num_cpus = j.alloc_cpus ? j.alloc_cpus : alloc_tasks(j) * j.cpus_per_task;
    t.start_time = j.pending() && j.expected_start ? j.expected_start : j.start_time;
    if (!j.nodes.empty()) {
        t.node_list = names(j.nodes);
        t.batch_host = batch_host;
        t.node_cpus = j.node_cpus;
    }
    for (std::size_t k = 0; k < j.node_alloc.size() && k < j.nodes.size(); ++k) {
        const Job::NodeAlloc &a = j.node_alloc[k];
        t.node_alloc.push_back(std::make_unique<proto::NodeAllocT>());
        proto::NodeAllocT &n = *t.node_alloc.back();
        n.node = names({j.nodes[k]});
        n.cpus = j.node_cpus[k];
        n.cpu_ids = a.cpu_ids;
        n.mem_mb = a.mem_mb;
        n.gres = a.gres;
    }
    t.dependency = j.ext().dependency.to_string();
    if (j.array) {
        t.array_tasks = format_task_list(j.array->pending);
        t.array_max_running = j.array->max_running;
    }
    if (j.array_meta) {
        const ArrayMeta &m = *j.array_meta;
        t.array_meta = {m.count, m.min_task, m.max_task, m.step};
    }
    if (!j.sched_nodes.empty()) t.sched_nodes = names(j.sched_nodes);
}

std::vector<uint32_t> node_indexes(const std::string &list, const NodeIndex &node_index) {
    std::vector<uint32_t> out;
    if (list.empty()) return out;
    for (const auto &n : hostlist_expand(list))
        if (int idx = node_index(n); idx >= 0) out.push_back(uint32_t(idx));
    return out;
}

// The inverse of write_special, for a stored record.
void read_special(const proto::JobInfoT &t, Job &j, const NodeIndex &node_index) {
    j.hold = Hold(t.held > 2 ? 2 : t.held);
    j.start_time = t.start_time;
    if (j.pending()) { // a pending job's stored start is only the scheduler's forecast
        j.expected_start = j.start_time;
        j.start_time = 0;
    }
    j.nodes = node_indexes(t.node_list, node_index);
    j.node_cpus = t.node_cpus;
    j.node_cpus.resize(j.nodes.size(), 0);
    if (t.node_alloc.size() == j.nodes.size())
        for (const auto &a : t.node_alloc) j.node_alloc.push_back({a->mem_mb, a->cpu_ids, a->gres});
    if (j.running() && j.alloc_cpus == 0) // a record written before alloc_cpus was stored
        for (auto c : j.node_cpus) j.alloc_cpus += c;
    if (t.array_meta.size() == 4)
        j.array_meta = std::make_shared<ArrayMeta>(
            ArrayMeta{t.array_meta[0], t.array_meta[1], t.array_meta[2], t.array_meta[3]});
    if (!t.array_tasks.empty()) {
        j.array = std::make_shared<ArrayInfo>();
        j.array->pending = parse_task_list(t.array_tasks);
        j.array->max_running = t.array_max_running;
        if (j.array_meta) {
            j.array->count = j.array_meta->count;
            j.array->min_task = j.array_meta->min_task;
            j.array->max_task = j.array_meta->max_task;
            j.array->step = j.array_meta->step;
        }
    }
    j.sched_nodes = node_indexes(t.sched_nodes, node_index);
}

} // namespace

flatbuffers::Offset<proto::JobInfo> write_job_info(flatbuffers::FlatBufferBuilder &fbb,
                                                   const Job &j, const NodeNamer &names,
                                                   const std::string &cluster, bool display) {
    proto::JobInfoT t;
    codec::to_info(j, t);
    write_special(j, t, names, display);
    t.cluster = cluster;
    return proto::JobInfo::Pack(fbb, &t);
}

std::string derive_job_fields(JobExtra &x, const NodeIndex &node_index, std::size_t node_count) {
    auto bits = [&](const std::string &list, Bitmap *out) -> std::string {
        *out = Bitmap();
        if (list.empty()) return {};
        *out = Bitmap(node_count);
        try {
            for (const auto &n : hostlist_expand(list)) {
                int i = node_index(n);
                if (i < 0 || std::size_t(i) >= node_count) return "Invalid node name specified";
                out->set(std::size_t(i));
            }
        } catch (const std::exception &) {
            return "Invalid node name specified";
        }
        return {};
    };
    std::string why = bits(x.req_nodes, &x.req_bits);
    if (std::string exc = bits(x.exc_nodes, &x.exc_bits); why.empty()) why = exc;
    x.signal_num = 0;
    x.signal_secs = 0;
    x.signal_batch_only = false;
    if (!x.signal.empty() &&
        !parse_signal_spec(x.signal, &x.signal_num, &x.signal_secs, &x.signal_batch_only) &&
        why.empty())
        why = "Invalid --signal specification";
    return why;
}

Job read_job_info(const proto::JobInfo &i, const NodeIndex &node_index, std::size_t node_count,
                  std::string *problem) {
    proto::JobInfoT t;
    i.UnPackTo(&t);
    Job j;
    JobExtra x;
    bool any_extra = codec::from_info(t, j, x);
    read_special(t, j, node_index);
    if (any_extra || !t.dependency.empty()) {
        x.dependency = parse_dependency(t.dependency);
        if (std::string why = derive_job_fields(x, node_index, node_count); !why.empty() && problem)
            *problem = why;
        j.extra = std::make_shared<JobExtra>(std::move(x));
    }
    return j;
}

} // namespace drover::ctld
