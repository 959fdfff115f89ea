// job_record.cpp - Job <-> JobInfo.
#include "ctld/job_record.hpp"

#include "proto/fb_read.hpp"

#include "common/gres.hpp"
#include "common/hostlist.hpp"
#include "ctld/job_fields.hpp" // fails to compile when Job gains a member not listed there
#include "ctld/job_mgr.hpp"
#include "ctld/job_signal_spec.hpp"

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

flatbuffers::Offset<proto::JobInfo> write_job_info(flatbuffers::FlatBufferBuilder &fbb,
                                                   const Job &j, const NodeNamer &names,
                                                   const std::string &cluster, bool display) {
    auto s = [&](const std::string &v) { return v.empty() ? 0 : fbb.CreateString(v); };
    std::string batch_host = j.nodes.empty() ? std::string() : names({j.nodes.front()});
    auto path = [&](const std::string &p) {
        return display && !p.empty() ? expand_output_path(p, j, batch_host) : p;
    };
    auto name = s(j.name), user = s(j.user_name), part = s(j.partition), acct = s(j.account),
         reason = s(j.reason), wd = s(j.work_dir), out = s(path(j.std_out)),
         err = s(path(j.std_err.empty() && display ? j.std_out : j.std_err)),
         in = s(path(j.std_in)), host = s(j.submit_host), cmd = s(j.command),
         comment = s(j.comment), cl = s(cluster);
    flatbuffers::Offset<flatbuffers::String> nodes, batch;
    flatbuffers::Offset<flatbuffers::Vector<uint32_t>> node_cpus;
    if (!j.nodes.empty()) {
        nodes = fbb.CreateString(names(j.nodes));
        batch = fbb.CreateString(batch_host);
        node_cpus = fbb.CreateVector(j.node_cpus);
    }
    const JobExtra &x = j.ext();
    auto gres = s(x.gres), constraint = s(x.constraint), req_nodes = s(x.req_nodes),
         exc_nodes = s(x.exc_nodes), signal = s(x.signal), dependency = s(x.dependency.to_string()),
         orig_dep = s(x.orig_dependency);
    flatbuffers::Offset<flatbuffers::String> array_tasks, sched_nodes;
    if (j.array) array_tasks = fbb.CreateString(format_task_list(j.array->pending));
    if (!j.sched_nodes.empty()) sched_nodes = fbb.CreateString(names(j.sched_nodes));
    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<proto::NodeAlloc>>> node_alloc;
    if (!j.node_alloc.empty()) {
        std::vector<flatbuffers::Offset<proto::NodeAlloc>> v;
        for (std::size_t k = 0; k < j.node_alloc.size() && k < j.nodes.size(); ++k)
            v.push_back(proto::CreateNodeAllocDirect(
                fbb, names({j.nodes[k]}).c_str(), j.node_cpus[k], j.node_alloc[k].cpu_ids.c_str(),
                j.node_alloc[k].mem_mb, j.node_alloc[k].gres.c_str()));
        node_alloc = fbb.CreateVector(v);
    }
    flatbuffers::Offset<flatbuffers::Vector<uint32_t>> array_meta;
    if (j.array_meta) {
        const ArrayMeta &m = *j.array_meta;
        array_meta =
            fbb.CreateVector(std::vector<uint32_t>{m.count, m.min_task, m.max_task, m.step});
    }
    proto::JobInfoBuilder b(fbb);
    b.add_job_id(j.id);
    b.add_name(name);
    b.add_user_id(j.uid);
    b.add_group_id(j.gid);
    b.add_user_name(user);
    b.add_partition(part);
    b.add_account(acct);
    b.add_state(j.state);
    b.add_state_reason(reason);
    b.add_priority(j.priority);
    b.add_min_nodes(j.min_nodes);
    b.add_max_nodes(j.max_nodes);
    b.add_num_tasks(j.num_tasks);
    b.add_cpus_per_task(j.cpus_per_task);
    b.add_num_cpus(j.alloc_cpus ? j.alloc_cpus : j.num_tasks * j.cpus_per_task);
    b.add_mem_per_node_mb(j.mem_per_node_mb);
    b.add_time_limit_min(j.time_limit_min);
    b.add_submit_time(j.submit_time);
    b.add_eligible_time(j.eligible_time);
    if (!(j.pending() && j.expected_start)) b.add_start_time(j.start_time);
    b.add_end_time(j.end_time);
    b.add_node_list(nodes);
    b.add_batch_host(batch);
    b.add_work_dir(wd);
    b.add_std_out(out);
    b.add_std_err(err);
    b.add_std_in(in);
    b.add_exit_status(j.exit_status);
    b.add_held(uint32_t(j.hold));
    b.add_submit_host(host);
    b.add_command(cmd);
    b.add_comment(comment);
    b.add_exclusive(j.exclusive);
    b.add_cancelled_by(j.cancelled_by);
    b.add_requeue(j.requeue);
    b.add_restart_count(j.restart_count);
    b.add_cluster(cl);
    b.add_node_cpus(node_cpus);
    b.add_mem_per_cpu_mb(j.mem_per_cpu_mb);
    b.add_ntasks_per_node(j.ntasks_per_node);
    b.add_min_cpus_per_node(j.min_cpus_per_node);
    b.add_tmp_disk_mb(j.tmp_disk_mb);
    b.add_gres(gres);
    b.add_gpus(x.gpus);
    b.add_gpus_per_node(x.gpus_per_node);
    b.add_gpus_per_task(x.gpus_per_task);
    b.add_constraint(constraint);
    b.add_req_nodes(req_nodes);
    b.add_exc_nodes(exc_nodes);
    b.add_contiguous(j.contiguous);
    b.add_share(j.share);
    b.add_nice(j.nice);
    b.add_dependency(dependency);
    b.add_orig_dependency(orig_dep);
    b.add_array_job_id(j.array_job_id);
    b.add_array_task_id(j.array_task_id);
    b.add_array_tasks(array_tasks);
    if (j.array) b.add_array_max_running(j.array->max_running);
    b.add_signal(signal);
    b.add_deadline(x.deadline);
    b.add_sched_nodes(sched_nodes);
    b.add_kill_on_invalid_dep(j.kill_on_invalid_dep);
    b.add_state_flags(j.state_flags);
    b.add_array_meta(array_meta);
    b.add_node_alloc(node_alloc);
    b.add_interactive(j.interactive);
    b.add_oversubscribe(j.oversubscribe);
    b.add_open_append(j.open_append);
    b.add_alloc_cpus(j.alloc_cpus);
    b.add_timed_out(j.timed_out);
    b.add_kill_sent(j.kill_sent);
    b.add_requeue_when_ended(j.requeue_when_ended);
    b.add_hold_when_requeued(j.hold_when_requeued);
    b.add_signal_sent(x.signal_sent);
    if (j.pending() && j.expected_start) b.add_start_time(j.expected_start);
    return b.Finish();
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
    Job j;
    j.id = i.job_id();
    j.name = proto::str(i.name());
    j.uid = i.user_id();
    j.gid = i.group_id();
    j.user_name = proto::str(i.user_name());
    j.partition = proto::str(i.partition());
    j.account = proto::str(i.account());
    j.state = i.state();
    j.reason = proto::str(i.state_reason());
    j.priority = i.priority();
    j.min_nodes = i.min_nodes();
    j.max_nodes = i.max_nodes();
    j.num_tasks = i.num_tasks();
    j.cpus_per_task = i.cpus_per_task();
    j.mem_per_node_mb = i.mem_per_node_mb();
    j.time_limit_min = i.time_limit_min();
    j.submit_time = i.submit_time();
    j.eligible_time = i.eligible_time();
    j.start_time = i.start_time();
    if (j.pending()) { // a pending job's stored start is only the scheduler's forecast
        j.expected_start = j.start_time;
        j.start_time = 0;
    }
    j.end_time = i.end_time();
    j.work_dir = proto::str(i.work_dir());
    j.std_out = proto::str(i.std_out());
    j.std_err = proto::str(i.std_err());
    j.std_in = proto::str(i.std_in());
    j.exit_status = i.exit_status();
    j.hold = Hold(i.held() > 2 ? 2 : i.held());
    j.submit_host = proto::str(i.submit_host());
    j.command = proto::str(i.command());
    j.comment = proto::str(i.comment());
    j.exclusive = i.exclusive();
    j.cancelled_by = i.cancelled_by();
    j.requeue = i.requeue();
    j.restart_count = i.restart_count();
    if (i.node_list() && i.node_list()->size()) {
        for (const auto &n : hostlist_expand(i.node_list()->str())) {
            int idx = node_index(n);
            if (idx >= 0) j.nodes.push_back(uint32_t(idx));
        }
    }
    if (i.node_cpus()) j.node_cpus.assign(i.node_cpus()->begin(), i.node_cpus()->end());
    j.mem_per_cpu_mb = i.mem_per_cpu_mb();
    j.ntasks_per_node = i.ntasks_per_node();
    j.min_cpus_per_node = i.min_cpus_per_node();
    j.tmp_disk_mb = i.tmp_disk_mb();
    j.contiguous = i.contiguous();
    j.share = i.share();
    j.nice = i.nice();
    j.kill_on_invalid_dep = i.kill_on_invalid_dep();
    j.interactive = i.interactive();
    j.oversubscribe = i.oversubscribe();
    j.open_append = i.open_append();
    j.timed_out = i.timed_out();
    j.kill_sent = i.kill_sent();
    j.requeue_when_ended = i.requeue_when_ended();
    j.hold_when_requeued = i.hold_when_requeued();
    j.state_flags = i.state_flags();
    j.array_job_id = i.array_job_id();
    j.array_task_id = i.array_task_id();
    if (i.array_meta() && i.array_meta()->size() == 4) {
        auto m = std::make_shared<ArrayMeta>();
        m->count = i.array_meta()->Get(0);
        m->min_task = i.array_meta()->Get(1);
        m->max_task = i.array_meta()->Get(2);
        m->step = i.array_meta()->Get(3);
        j.array_meta = std::move(m);
    }
    if (i.array_tasks() && i.array_tasks()->size()) {
        j.array = std::make_shared<ArrayInfo>();
        j.array->pending = parse_task_list(i.array_tasks()->str());
        j.array->max_running = i.array_max_running();
        if (j.array_meta) {
            j.array->count = j.array_meta->count;
            j.array->min_task = j.array_meta->min_task;
            j.array->max_task = j.array_meta->max_task;
            j.array->step = j.array_meta->step;
        }
    }
    if (i.gres() || i.constraint() || i.req_nodes() || i.exc_nodes() || i.signal() ||
        i.dependency() || i.orig_dependency() || i.gpus() || i.gpus_per_node() ||
        i.gpus_per_task() || i.deadline() || i.signal_sent()) {
        auto x = std::make_shared<JobExtra>();
        x->gres = proto::str(i.gres());
        x->constraint = proto::str(i.constraint());
        x->req_nodes = proto::str(i.req_nodes());
        x->exc_nodes = proto::str(i.exc_nodes());
        x->signal = proto::str(i.signal());
        x->gpus = i.gpus();
        x->gpus_per_node = i.gpus_per_node();
        x->gpus_per_task = i.gpus_per_task();
        x->deadline = i.deadline();
        x->orig_dependency = proto::str(i.orig_dependency());
        x->dependency = parse_dependency(proto::str(i.dependency()));
        x->signal_sent = i.signal_sent();
        if (std::string why = derive_job_fields(*x, node_index, node_count);
            !why.empty() && problem)
            *problem = why;
        j.extra = std::move(x);
    }
    if (i.sched_nodes() && i.sched_nodes()->size()) {
        for (const auto &n : hostlist_expand(i.sched_nodes()->str()))
            if (int idx = node_index(n); idx >= 0) j.sched_nodes.push_back(uint32_t(idx));
    }
    j.node_cpus.resize(j.nodes.size(), 0);
    if (i.node_alloc() && i.node_alloc()->size() == j.nodes.size())
        for (const auto *a : *i.node_alloc())
            j.node_alloc.push_back({a->mem_mb(), proto::str(a->cpu_ids()), proto::str(a->gres())});
    j.alloc_cpus = i.alloc_cpus();
    if (j.running() && j.alloc_cpus == 0) // a record written before alloc_cpus was stored
        for (auto c : j.node_cpus) j.alloc_cpus += c;
    return j;
}

} // namespace drover::ctld
