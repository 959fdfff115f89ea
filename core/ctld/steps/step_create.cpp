// step_create.cpp - a step's shape, memory, credential and creation answer.
#include "ctld/steps/step_create.hpp"

#include <spdlog/spdlog.h>

#include <unordered_set>

#include "common/gres.hpp"
#include "common/hostlist.hpp"
#include "ctld/jobs/job_signal_spec.hpp"
#include "ctld/nodes/node_calls.hpp"
#include "proto/fb_read.hpp"

namespace drover::ctld {

namespace {

using proto::str;

// -w/-x: which of the job's nodes the step may use.
Status restrict_nodes(const Job &job, const proto::StepCreateRequest &r, const NodeNamer &node_name,
                      StepShape *shape) {
    std::unordered_set<std::string> want, skip;
    try {
        for (auto &n : hostlist_expand(str(r.node_list()))) want.insert(n);
        for (auto &n : hostlist_expand(str(r.exc_nodes()))) skip.insert(n);
    } catch (const std::exception &e) {
        return {DROVER_EINVAL, e.what()};
    }
    for (const auto &n : want) {
        bool in_job = false;
        for (uint32_t idx : job.nodes) in_job = in_job || node_name(idx) == n;
        if (!in_job)
            return {DROVER_EINVAL, "Requested node configuration is not available (" + n +
                                       " is not in job " + std::to_string(job.id) + ")"};
    }
    shape->allowed.resize(job.nodes.size(), false);
    for (std::size_t i = 0; i < job.nodes.size(); ++i) {
        const std::string &n = node_name(job.nodes[i]);
        shape->allowed[i] = (want.empty() || want.count(n)) && !skip.count(n);
    }
    if (!want.empty() && !shape->min_nodes) shape->min_nodes = uint32_t(want.size());
    return {};
}

// -m arbitrary: task i on the i-th name of the host list (the -w list srun sent, in order, names
// repeated), the first num_tasks of them.
Status arbitrary_tasks(const Job &job, const proto::StepCreateRequest &r,
                       const NodeNamer &node_name, StepShape *shape) {
    std::vector<std::string> names;
    try {
        names = hostlist_expand(str(r.node_list()));
    } catch (const std::exception &e) {
        return {DROVER_EINVAL, e.what()};
    }
    if (names.empty()) return {}; // no list: block, as Slurm
    if (shape->num_tasks == 0) shape->num_tasks = uint32_t(names.size());
    if (names.size() < shape->num_tasks)
        return {DROVER_EINVAL, "Requested node configuration is not available (the host list "
                               "names " +
                                   std::to_string(names.size()) + " hosts for " +
                                   std::to_string(shape->num_tasks) + " tasks)"};
    for (uint32_t t = 0; t < shape->num_tasks; ++t)
        for (uint32_t pos = 0; pos < job.nodes.size(); ++pos)
            if (node_name(job.nodes[pos]) == names[t]) {
                shape->arbitrary.push_back(pos);
                break;
            }
    return {};
}

} // namespace

Status step_shape(const Job &job, const proto::StepCreateRequest &r, const NodeNamer &node_name,
                  StepShape *shape) {
    shape->num_tasks = r.num_tasks();
    shape->min_nodes = r.min_nodes();
    shape->max_nodes = r.max_nodes();
    shape->cpus_per_task = std::max(1u, r.cpus_per_task());
    shape->ntasks_per_node = r.ntasks_per_node();
    shape->exact = r.exact();
    shape->overlap = r.overlap();
    shape->overcommit = r.overcommit();
    shape->cyclic = r.cyclic();
    if (!valid_gres_request(str(r.gres()))) {
        spdlog::info("job {}: step refused: invalid --gres '{}'", job.id, str(r.gres()));
        return {DROVER_EINVAL, kInvalidGres};
    }
    shape->plane = r.plane_size();
    if (r.node_list() || r.exc_nodes())
        if (Status s = restrict_nodes(job, r, node_name, shape); !s.ok()) return s;
    if (r.arbitrary())
        if (Status s = arbitrary_tasks(job, r, node_name, shape); !s.ok()) return s;
    if (shape->num_tasks == 0)
        shape->num_tasks = shape->min_nodes ? shape->min_nodes : uint32_t(job.nodes.size());
    return {};
}

Status step_memory(const Job &job, const proto::StepCreateRequest &r, const StepLayout &lay,
                   std::vector<uint64_t> *mem) {
    for (std::size_t k = 0; k < lay.nodes.size(); ++k) {
        uint64_t have = job_mem_on(job, lay.nodes[k]);
        uint64_t m = r.mem_per_node_mb()  ? r.mem_per_node_mb()
                     : r.mem_per_cpu_mb() ? r.mem_per_cpu_mb() * lay.cpus_per_node[k]
                                          : have;
        if (have && m > have)
            return {DROVER_ENOSPC, "Memory required by task is not available (" +
                                       std::to_string(m) + "M asked, the job has " +
                                       std::to_string(have) + "M on a node)"};
        mem->push_back(m);
    }
    return {};
}

Status new_step(const Job &job, uint32_t id, const proto::StepCreateRequest &r,
                const StepShape &shape, const StepLayout &lay, Step *st) {
    st->job_id = job.id;
    st->id = id;
    st->uid = job.uid;
    st->name = r.name() && r.name()->size() ? r.name()->str() : job.name;
    st->command = str(r.command());
    st->submit_host = str(r.submit_host());
    st->nodes = lay.nodes;
    st->cpus = lay.cpus_per_node;
    st->tasks_per_node = lay.tasks_per_node;
    st->num_tasks = shape.num_tasks;
    st->cpus_per_task = shape.cpus_per_task;
    st->mem_per_node_mb = r.mem_per_node_mb();
    st->start_time = Ctx::now();
    st->time_limit_min = r.time_limit_min() == DROVER_NO_VAL ? DROVER_INFINITE : r.time_limit_min();
    st->reporting = lay.nodes;
    if (r.signal() && r.signal()->size()) {
        bool batch_only = false;
        if (!parse_signal_spec(r.signal()->str(), &st->signal_num, &st->signal_secs, &batch_only))
            return {DROVER_EINVAL, "Invalid --signal specification: " + r.signal()->str()};
    }
    return {};
}

std::vector<uint8_t> step_cred_body(const Config &conf, const Job &job, const Step &st,
                                    const StepPlacement &where, const std::vector<uint64_t> &mem,
                                    const std::string &signal) {
    flatbuffers::FlatBufferBuilder cb(1024);
    std::vector<uint32_t> job_cpus(job.node_cpus.begin(), job.node_cpus.end());
    auto strings = [&cb](const std::vector<std::string> &v) {
        std::vector<flatbuffers::Offset<flatbuffers::String>> off;
        for (const auto &s : v) off.push_back(cb.CreateString(s));
        return cb.CreateVector(off);
    };
    auto user = cb.CreateString(job.user_name);
    auto nv = strings(where.names);
    auto cv = cb.CreateVector(st.cpus);
    auto civ = strings(where.cpu_id_lists);
    auto mv = cb.CreateVector(mem);
    auto jnl = cb.CreateString(where.job_node_list);
    auto jc = cb.CreateVector(job_cpus);
    auto part = cb.CreateString(job.partition);
    auto jn = cb.CreateString(job.name);
    auto gv = strings(where.gres);
    auto sg = cb.CreateString(signal);
    cb.Finish(proto::CreateStepCred(cb, job.id, st.id, job.uid, job.gid, user, nv, cv, civ, mv,
                                    Ctx::now() + conf.cred_lifetime(), st.time_limit_min, jnl, jc,
                                    part, jn, gv, sg));
    return {cb.GetBufferPointer(), cb.GetBufferPointer() + cb.GetSize()};
}

std::vector<uint8_t> bcast_cred_body(const Job &job, uint32_t step_id,
                                     const std::vector<std::string> &names) {
    constexpr int64_t kBcastLifetime = 3600;
    flatbuffers::FlatBufferBuilder cb(512);
    auto user = cb.CreateString(job.user_name);
    auto nv = cb.CreateVectorOfStrings(names);
    proto::StepCredBuilder b(cb);
    b.add_job_id(job.id);
    b.add_step_id(step_id);
    b.add_uid(job.uid);
    b.add_gid(job.gid);
    b.add_user_name(user);
    b.add_nodes(nv);
    // No later than the job's time limit: a broadcast is for the job's nodes while it has them.
    int64_t expires = Ctx::now() + kBcastLifetime;
    if (job.time_limit_min != DROVER_INFINITE && job.start_time)
        expires = std::min(expires, job_limit_end(job));
    b.add_expires(expires);
    b.add_bcast(true);
    cb.Finish(b.Finish());
    return {cb.GetBufferPointer(), cb.GetBufferPointer() + cb.GetSize()};
}

std::vector<uint8_t> bcast_cred_response(const Ctx &ctx, const Job &job, uint32_t step_id,
                                         const std::vector<std::string> &names,
                                         const std::vector<uint8_t> &cred) {
    flatbuffers::FlatBufferBuilder fbb(1024 + cred.size());
    std::vector<std::string> addrs;
    for (const auto &n : names) {
        std::string host;
        uint16_t port = 0;
        resolve_node(ctx, n, &host, &port);
        addrs.push_back(host + ":" + std::to_string(port));
    }
    auto nv = fbb.CreateVectorOfStrings(names);
    auto av = fbb.CreateVectorOfStrings(addrs);
    auto cv = fbb.CreateVector(cred);
    fbb.Finish(proto::CreateMessage(
        fbb, proto::Body::BcastCredResponse,
        proto::CreateBcastCredResponse(fbb, job.id, step_id, nv, av, cv).Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

std::vector<uint8_t> step_create_response(const Ctx &ctx, const Job &job, const Step &st,
                                          const StepLayout &lay, const StepPlacement &where,
                                          const std::vector<uint8_t> &cred) {
    flatbuffers::FlatBufferBuilder fbb(2048 + cred.size());
    std::vector<flatbuffers::Offset<flatbuffers::String>> n_off, a_off;
    std::vector<uint32_t> tasks;
    for (std::size_t k = 0; k < where.names.size(); ++k) {
        std::string host;
        uint16_t port = 0;
        resolve_node(ctx, where.names[k], &host, &port);
        n_off.push_back(fbb.CreateString(where.names[k]));
        a_off.push_back(fbb.CreateString(host + ":" + std::to_string(port)));
        tasks.insert(tasks.end(), lay.task_ids[k].begin(), lay.task_ids[k].end());
    }
    auto nv = fbb.CreateVector(n_off);
    auto av = fbb.CreateVector(a_off);
    auto tv = fbb.CreateVector(tasks);
    auto tpn = fbb.CreateVector(lay.tasks_per_node);
    auto cv = fbb.CreateVector(cred);
    auto nl = fbb.CreateString(hostlist_compress(where.names));
    auto cpn = fbb.CreateVector(st.cpus);
    fbb.Finish(
        proto::CreateMessage(fbb, proto::Body::StepCreateResponse,
                             proto::CreateStepCreateResponse(fbb, job.id, st.id, nv, av, tv, tpn,
                                                             cv, nl, cpn, st.time_limit_min)
                                 .Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

} // namespace drover::ctld
