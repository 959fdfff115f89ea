// launcher.cpp - the batch launch message and its delivery.
#include "ctld/sched/launcher.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>
#include <unordered_set>

#include "common/gres.hpp"
#include "ctld/store/committer.hpp"
#include "ctld/context.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_env.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/nodes/node_calls.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"
#include "ctld/jobs/job_script.hpp"
#include "proto/frame.hpp"
#include "state/store.hpp"

namespace drover::ctld {

namespace {

// The submitter's exported environment first; Slurm's variables override it.
std::vector<flatbuffers::Offset<proto::KeyValue>>
launch_environment(flatbuffers::FlatBufferBuilder &fbb, const proto::JobDesc &d,
                   const EnvList &slurm_env) {
    std::vector<flatbuffers::Offset<proto::KeyValue>> env;
    std::unordered_set<std::string> ours;
    for (const auto &[k, val] : slurm_env) ours.insert(k);
    if (d.environment())
        for (const auto *kv : *d.environment())
            if (kv->key() && !ours.count(kv->key()->str()))
                env.push_back(proto::CreateKeyValue(fbb, fbb.CreateString(kv->key()),
                                                    fbb.CreateString(kv->value())));
    for (const auto &[k, val] : slurm_env)
        env.push_back(proto::CreateKeyValueDirect(fbb, k.c_str(), val.c_str()));
    return env;
}

// The BatchLaunchRequest for job's current run on its batch host.
std::vector<uint8_t> launch_message(const Ctx &ctx, const Job &job, const proto::JobDesc &d,
                                    const std::string &batch_host, const std::string &node_list,
                                    const EnvList &extra) {
    flatbuffers::FlatBufferBuilder fbb(4096 + d.script()->size());
    EnvList slurm_env = batch_job_environment(job, node_list, batch_host, ctx.conf);
    slurm_env.insert(slurm_env.end(), extra.begin(), extra.end());
    auto env = launch_environment(fbb, d, slurm_env);
    std::vector<flatbuffers::Offset<flatbuffers::String>> argv;
    if (d.argv())
        for (const auto *a : *d.argv()) argv.push_back(fbb.CreateString(a));
    std::string out = expand_output_path(job.std_out, job, batch_host);
    std::string err = job.std_err.empty() ? out : expand_output_path(job.std_err, job, batch_host);
    std::string in = expand_output_path(job.std_in, job, batch_host);
    auto req = proto::CreateBatchLaunchRequest(
        fbb, job.id, job.uid, job.gid, fbb.CreateString(job.user_name), fbb.CreateString(job.name),
        fbb.CreateString(d.script()), fbb.CreateVector(env), fbb.CreateVector(argv),
        fbb.CreateString(job.work_dir), fbb.CreateString(out), fbb.CreateString(err),
        fbb.CreateString(in), fbb.CreateString(node_list), job.node_cpus.front(), job.open_append,
        job.time_limit_min, fbb.CreateString(job.partition), job.restart_count, job_mem_on(job, 0),
        fbb.CreateString(job.node_alloc.empty() ? std::string()
                                                : format_index_list(job_cpu_ids(job, 0))),
        fbb.CreateString(job.node_alloc.empty() ? std::string() : job.node_alloc.front().gres));
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::BatchLaunchRequest, req.Union(), ctx.epoch));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

} // namespace

Launcher::Launcher(Ctx &ctx, const NodeManager &nodes, JobManager &jobs)
    : ctx_(ctx), nodes_(nodes), jobs_(jobs) {
    ctx_.events.job_started.subscribe([this](const Job &j) {
        if (!j.interactive) launch(j.id); // salloc/srun: the allocation is theirs
    });
    ctx_.events.relaunch.subscribe([this](uint32_t id) { relaunch(id); });
}

void Launcher::relaunch(uint32_t job_id) {
    ctx_.commit.after_commit([this, job_id] {
        Job *j = jobs_.find(job_id);
        // A configuring job is launched when its nodes are up (Events::job_started).
        if (j && j->running() && !j->interactive && !j->configuring() && !launching(job_id))
            launch(job_id);
    });
}

void Launcher::launch(uint32_t job_id) {
    Job *job = jobs_.find(job_id);
    if (!job || !job->running()) return;
    std::optional<std::vector<uint8_t>> rec;
    const proto::JobDesc *desc = stored_desc(ctx_.store, *job, rec);
    if (!desc) {
        spdlog::error("job {}: its script record is missing or damaged", job_id);
        job->reason = "Script record lost";
        jobs_.end_job(*job, DROVER_JOB_FAILED, 1 << 8);
        return;
    }
    const Node &batch = nodes_.at(job->nodes.front());
    std::string host;
    uint16_t port = 0;
    resolve_node(ctx_, batch.conf->name, &host, &port);
    auto names = [this](const std::vector<uint32_t> &n) { return nodes_.names(n); };
    EnvList extra = het_job_environment(jobs_.het_components(*job), names, ctx_.conf);
    if (std::string aliases = nodes_.aliases(job->nodes); !aliases.empty())
        extra.push_back({"SLURM_NODE_ALIASES", aliases});
    auto msg = launch_message(ctx_, *job, *desc, batch.conf->name, nodes_.names(job->nodes), extra);
    launching_.insert(job_id);
    uint32_t run = job->restart_count;
    // BatchStartTimeout: how long the batch host may take to start the job (its Prolog included)
    // before the launch is taken as lost and sent again; 30 s at least.
    int timeout_ms = int(std::max<uint32_t>(
                         ctx_.conf.power.batch_start_timeout + ctx_.conf.message_timeout, 30)) *
                     1000;
    ctx_.pool.call(host, port, batch.conf->name, std::move(msg), ctx_.auth.self_signer(),
                   timeout_ms,
                   [this, job_id, run](const std::string &e, std::shared_ptr<net::Reply> reply) {
                       std::string why = e;
                       if (reply && reply->msg->body_as_ErrorResponse())
                           why = reply->msg->body_as_ErrorResponse()->message()->str();
                       launched(job_id, run, why, reply != nullptr);
                   });
}

void Launcher::launched(uint32_t job_id, uint32_t run, const std::string &why, bool answered) {
    launching_.erase(job_id);
    if (why.empty()) return;
    Job *j = jobs_.find(job_id);
    if (!j || !j->running() || j->restart_count != run) return;
    if (!answered) {
        // The node may have it (the answer was lost) or be restarting: the launch is tried
        // again until the node takes it or is declared down (which ends or requeues the job).
        spdlog::warn("job {}: cannot launch it on its node ({}); trying again in 5 s", job_id, why);
        auto t = std::make_shared<boost::asio::steady_timer>(ctx_.io, std::chrono::seconds(5));
        t->async_wait([this, t, job_id, run](boost::system::error_code ec) {
            Job *again = jobs_.find(job_id);
            if (!ec && again && again->restart_count == run) relaunch(job_id);
        });
        return;
    }
    spdlog::error("job {}: batch launch failed: {}", job_id, why);
    j->reason = "launch failed: " + why;
    jobs_.end_job(*j, DROVER_JOB_FAILED, 1 << 8);
}

} // namespace drover::ctld
