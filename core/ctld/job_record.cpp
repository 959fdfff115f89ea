// job_record.cpp - Job <-> JobInfo.
#include "ctld/job_record.hpp"

#include "common/hostlist.hpp"
#include "ctld/job_mgr.hpp"

namespace drover::ctld {

const char *job_state_name(uint32_t state) {
    switch (state) {
    case DROVER_JOB_PENDING: return "PENDING";
    case DROVER_JOB_RUNNING: return "RUNNING";
    case DROVER_JOB_SUSPENDED: return "SUSPENDED";
    case DROVER_JOB_COMPLETE: return "COMPLETED";
    case DROVER_JOB_CANCELLED: return "CANCELLED";
    case DROVER_JOB_FAILED: return "FAILED";
    case DROVER_JOB_TIMEOUT: return "TIMEOUT";
    case DROVER_JOB_NODE_FAIL: return "NODE_FAIL";
    case DROVER_JOB_PREEMPTED: return "PREEMPTED";
    case DROVER_JOB_BOOT_FAIL: return "BOOT_FAIL";
    case DROVER_JOB_DEADLINE: return "DEADLINE";
    case DROVER_JOB_OOM: return "OUT_OF_MEMORY";
    default: return "UNKNOWN";
    }
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
         err = s(path(j.std_err.empty() && display ? j.std_out : j.std_err)), in = s(path(j.std_in)), host = s(j.submit_host), cmd = s(j.command), comment = s(j.comment),
         cl = s(cluster);
    flatbuffers::Offset<flatbuffers::String> nodes, batch;
    flatbuffers::Offset<flatbuffers::Vector<uint32_t>> node_cpus;
    if (!j.nodes.empty()) {
        nodes = fbb.CreateString(names(j.nodes));
        batch = fbb.CreateString(batch_host);
        node_cpus = fbb.CreateVector(j.node_cpus);
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
    b.add_start_time(j.start_time);
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
    return b.Finish();
}

Job read_job_info(const proto::JobInfo &i,
                  const std::function<int(const std::string &)> &node_index) {
    auto s = [](const flatbuffers::String *v) { return v ? v->str() : std::string(); };
    Job j;
    j.id = i.job_id();
    j.name = s(i.name());
    j.uid = i.user_id();
    j.gid = i.group_id();
    j.user_name = s(i.user_name());
    j.partition = s(i.partition());
    j.account = s(i.account());
    j.state = i.state();
    j.reason = s(i.state_reason());
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
    j.end_time = i.end_time();
    j.work_dir = s(i.work_dir());
    j.std_out = s(i.std_out());
    j.std_err = s(i.std_err());
    j.std_in = s(i.std_in());
    j.exit_status = i.exit_status();
    j.hold = Hold(i.held() > 2 ? 2 : i.held());
    j.submit_host = s(i.submit_host());
    j.command = s(i.command());
    j.comment = s(i.comment());
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
    j.node_cpus.resize(j.nodes.size(), 0);
    if (j.running()) {
        j.alloc_cpus = 0;
        for (auto c : j.node_cpus) j.alloc_cpus += c;
    } else {
        j.alloc_cpus = i.num_cpus();
    }
    return j;
}

}  // namespace drover::ctld
