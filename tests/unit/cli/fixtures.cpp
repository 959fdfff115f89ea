// fixtures.cpp - FlatBuffers builders for the CLI tests.
#include "fixtures.hpp"

#include "common/error.hpp"

namespace drover::cli::test {

std::string error_of(const std::function<void()> &fn) {
    try {
        fn();
    } catch (const ParseError &e) {
        return e.what();
    }
    return "no error";
}

namespace {
flatbuffers::Offset<flatbuffers::String> s(flatbuffers::FlatBufferBuilder &fbb,
                                           const std::string &v) {
    return v.empty() ? 0 : fbb.CreateString(v);
}

// Keeps the finished buffer in bufs and lists in out the records list(response) holds.
template <class Response, class Record, class List>
const std::vector<const Record *> &keep(flatbuffers::FlatBufferBuilder &fbb,
                                        std::vector<std::vector<uint8_t>> &bufs,
                                        std::vector<const Record *> &out, List list) {
    bufs.emplace_back(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    const auto *r = flatbuffers::GetRoot<Response>(bufs.back().data());
    out.clear();
    for (const auto *x : *list(*r)) out.push_back(x);
    return out;
}

} // namespace

const std::vector<const proto::JobInfo *> &Records::jobs(const std::vector<Job> &in) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<proto::JobInfo>> out;
    for (const auto &j : in) {
        auto name = s(fbb, j.name), user = s(fbb, j.user), part = s(fbb, j.partition),
             acct = s(fbb, j.account), reason = s(fbb, j.reason), nodes = s(fbb, j.nodes),
             batch = s(fbb, j.batch_host), wd = s(fbb, j.work_dir), o = s(fbb, j.out),
             e = s(fbb, j.err), i = s(fbb, j.in), host = s(fbb, j.submit_host),
             cmd = s(fbb, j.command), comment = s(fbb, j.comment), qos = s(fbb, j.qos);
        auto tasks = s(fbb, j.array_tasks), dep = s(fbb, j.dependency),
             orig_dep = s(fbb, j.orig_dependency), constraint = s(fbb, j.constraint),
             req = s(fbb, j.req_nodes), exc = s(fbb, j.exc_nodes), gres = s(fbb, j.gres),
             sched = s(fbb, j.sched_nodes), lics = s(fbb, j.licenses), resv = s(fbb, j.reservation);
        flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<proto::NodeAlloc>>> alloc;
        if (!j.node_alloc.empty()) {
            std::vector<flatbuffers::Offset<proto::NodeAlloc>> v;
            for (const auto &a : j.node_alloc)
                v.push_back(proto::CreateNodeAllocDirect(
                    fbb, a.node.c_str(), a.cpus, a.cpu_ids.c_str(), a.mem_mb, a.gres.c_str()));
            alloc = fbb.CreateVector(v);
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
        b.add_num_cpus(j.num_cpus);
        b.add_mem_per_node_mb(j.mem_mb);
        b.add_time_limit_min(j.limit);
        b.add_submit_time(j.submit);
        b.add_eligible_time(j.eligible);
        b.add_start_time(j.start);
        b.add_end_time(j.end);
        b.add_node_list(nodes);
        b.add_batch_host(batch);
        b.add_work_dir(wd);
        b.add_std_out(o);
        b.add_std_err(e);
        b.add_std_in(i);
        b.add_exit_status(j.exit_status);
        b.add_submit_host(host);
        b.add_command(cmd);
        b.add_comment(comment);
        b.add_exclusive(j.exclusive);
        b.add_requeue(j.requeue);
        b.add_restart_count(j.restarts);
        b.add_array_job_id(j.array_job_id);
        b.add_array_task_id(j.array_task_id);
        b.add_array_tasks(tasks);
        b.add_array_max_running(j.array_max_running);
        b.add_het_job_id(j.het_job_id);
        b.add_het_job_offset(j.het_job_offset);
        b.add_het_size(j.het_size);
        b.add_dependency(dep);
        b.add_orig_dependency(orig_dep);
        b.add_nice(j.nice);
        b.add_constraint(constraint);
        b.add_req_nodes(req);
        b.add_exc_nodes(exc);
        b.add_gres(gres);
        b.add_sched_nodes(sched);
        b.add_gpus(j.gpus);
        b.add_gpus_per_node(j.gpus_per_node);
        b.add_gpus_per_task(j.gpus_per_task);
        b.add_mem_per_cpu_mb(j.mem_per_cpu_mb);
        b.add_tmp_disk_mb(j.tmp_disk_mb);
        b.add_ntasks_per_node(j.ntasks_per_node);
        b.add_min_cpus_per_node(j.min_cpus_per_node);
        b.add_share(j.share);
        b.add_contiguous(j.contiguous);
        b.add_deadline(j.deadline);
        b.add_node_alloc(alloc);
        b.add_qos(qos);
        b.add_licenses(lics);
        b.add_reservation(resv);
        b.add_suspend_time(j.suspend_time);
        b.add_pre_suspend_secs(j.pre_suspend_secs);
        out.push_back(b.Finish());
    }
    fbb.Finish(proto::CreateJobInfoResponse(fbb, fbb.CreateVector(out), 0));
    return keep<proto::JobInfoResponse>(fbb, bufs_, jobs_, [](const auto &r) { return r.jobs(); });
}

const std::vector<const proto::NodeInfo *> &Records::nodes(const std::vector<Node> &in) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<proto::NodeInfo>> out;
    for (const auto &n : in) {
        auto name = s(fbb, n.name), reason = s(fbb, n.reason);
        auto parts = fbb.CreateVectorOfStrings(n.partitions);
        proto::NodeInfoBuilder b(fbb);
        b.add_name(name);
        b.add_state(n.state);
        b.add_flags(n.flags);
        b.add_reason(reason);
        b.add_reason_time(n.reason_time);
        b.add_reason_uid(n.reason_uid);
        b.add_cpus(n.cpus);
        b.add_alloc_cpus(n.alloc_cpus);
        b.add_sockets(1);
        b.add_cores_per_socket(n.cpus);
        b.add_threads_per_core(1);
        b.add_real_memory_mb(n.memory);
        b.add_alloc_memory_mb(n.alloc_memory);
        b.add_port(n.port);
        b.add_weight(1);
        b.add_partitions(parts);
        out.push_back(b.Finish());
    }
    fbb.Finish(proto::CreateNodeInfoResponse(fbb, fbb.CreateVector(out), 0));
    return keep<proto::NodeInfoResponse>(fbb, bufs_, nodes_,
                                         [](const auto &r) { return r.nodes(); });
}

const std::vector<const proto::PartitionInfo *> &Records::parts(const std::vector<Part> &in) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<proto::PartitionInfo>> out;
    for (const auto &p : in) {
        out.push_back(proto::CreatePartitionInfoDirect(
            fbb, p.name.c_str(), p.nodes.c_str(), p.is_default, p.state.c_str(), p.max_time,
            p.default_time, p.max_nodes, p.min_nodes, nullptr, "NO", p.total_cpus, p.total_nodes, 1,
            nullptr, p.allow_accounts.c_str(), p.priority_job_factor, p.preempt_mode.c_str(),
            p.suspend_time, p.suspend_timeout, p.resume_timeout, p.power_down_on_idle));
    }
    fbb.Finish(proto::CreatePartitionInfoResponse(fbb, fbb.CreateVector(out), 0));
    return keep<proto::PartitionInfoResponse>(fbb, bufs_, parts_,
                                              [](const auto &r) { return r.partitions(); });
}

const std::vector<const proto::AcctJob *> &Records::acct(const std::vector<Acct> &in) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<proto::AcctJob>> out;
    for (const auto &a : in) {
        std::vector<flatbuffers::Offset<proto::AcctStep>> steps;
        for (const auto &s : a.steps)
            steps.push_back(proto::CreateAcctStepDirect(
                fbb, a.id, s.id, s.name.c_str(), s.nodes.c_str(), s.nodes_count, s.tasks, s.cpus, 0,
                s.state, s.exit_status, s.start, s.end, s.cancelled_by, s.max_rss_task, s.max_rss,
                s.ave_rss, s.max_rss_node.c_str(), s.max_vsize, s.ave_vsize,
                s.max_vsize_node.c_str(), s.ave_cpu_usec, s.user_cpu_usec, s.sys_cpu_usec,
                s.max_disk_read, s.max_disk_write, s.max_disk_read_node.c_str(),
                s.max_disk_write_node.c_str(), s.tres.c_str(), s.min_cpu_usec, s.ave_disk_read,
                s.ave_disk_write));
        out.push_back(proto::CreateAcctJobDirect(
            fbb, a.id, a.uid, a.gid, "local", a.name.c_str(), a.partition.c_str(),
            a.account.c_str(), a.nodes.c_str(), a.work_dir.c_str(), a.alloc_nodes, a.alloc_cpus,
            a.req_cpus, a.req_mem, a.state, a.exit_status, a.limit, a.submit, a.eligible, a.start,
            a.end, a.cancelled_by, a.array_job_id, a.array_task_id, nullptr,
            a.steps.empty() ? nullptr : &steps, nullptr, nullptr, a.het_job_id, a.het_job_offset));
    }
    fbb.Finish(proto::CreateAcctQueryResponse(fbb, fbb.CreateVector(out)));
    return keep<proto::AcctQueryResponse>(fbb, bufs_, acct_,
                                          [](const auto &r) { return r.jobs(); });
}

const std::vector<const proto::ReservationInfo *> &Records::resvs(const std::vector<Resv> &in) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<proto::ReservationInfo>> out;
    for (const auto &r : in) {
        auto opt = [](const std::string &v) { return v.empty() ? nullptr : v.c_str(); };
        out.push_back(proto::CreateReservationInfoDirect(
            fbb, r.name.c_str(), r.start, r.end, opt(r.nodes), r.node_count, r.core_count,
            opt(r.features), opt(r.partition), r.flags, opt(r.users), opt(r.accounts),
            opt(r.licenses), 0, 0, r.max_start_delay_s));
    }
    fbb.Finish(proto::CreateReservationInfoResponse(fbb, fbb.CreateVector(out), 0));
    return keep<proto::ReservationInfoResponse>(fbb, bufs_, resvs_,
                                                [](const auto &r) { return r.reservations(); });
}

} // namespace drover::cli::test
