// job_submit.cpp - sbatch's request: validation against partitions and node selection, the new
// job's record, and the reply once both are durable.
#include <grp.h>
#include <pwd.h>
#include <spdlog/spdlog.h>

#include "common/timefmt.hpp"
#include "ctld/committer.hpp"
#include "ctld/job_mgr.hpp"
#include "ctld/node_mgr.hpp"
#include "ctld/scheduler.hpp"
#include "plugin/plugin_set.hpp"
#include "state/store.hpp"

namespace drover::ctld {

namespace {

std::string str(const flatbuffers::String *s) { return s ? s->str() : std::string(); }

bool user_in_groups(uint32_t uid, uint32_t gid, const std::vector<uint32_t> &allowed) {
    if (allowed.empty()) return true;
    std::vector<gid_t> groups(64);
    int n = int(groups.size());
    if (const passwd *pw = ::getpwuid(uid)) {
        if (::getgrouplist(pw->pw_name, gid, groups.data(), &n) < 0) {
            groups.resize(std::size_t(n));
            ::getgrouplist(pw->pw_name, gid, groups.data(), &n);
        }
        groups.resize(std::size_t(std::max(n, 0)));
    } else {
        groups.assign(1, gid);
    }
    for (auto g : groups)
        if (std::find(allowed.begin(), allowed.end(), uint32_t(g)) != allowed.end()) return true;
    return false;
}

// Slurm's basic priority: each later submission one lower than the one before.
uint32_t default_priority(uint32_t id) {
    constexpr uint32_t kTop = 0xffff0000u;
    return id < kTop ? kTop - id : 1;
}

}  // namespace

std::string JobManager::validate(Job &job, Partition *&part, uint32_t uid, uint32_t gid) {
    part = job.partition.empty() ? ctx_.nodes->default_partition()
                                 : ctx_.nodes->partition(job.partition);
    if (!part) {
        return job.partition.empty() ? "No partition specified or system default partition"
                                     : "Invalid partition name specified";
    }
    job.partition = part->conf->name;
    if (part->state == "INACTIVE" || part->state == "DRAIN")
        return "Requested partition configuration not available now";
    if (!user_in_groups(uid, gid, part->allow_gids))
        return "User's group not permitted to use this partition";
    if (job.min_nodes > part->nodes.count()) return "Node count specification invalid";
    if (job.max_nodes != DROVER_INFINITE && job.max_nodes < job.min_nodes)
        return "Node count specification invalid";
    if (job.time_limit_min == kNoVal)
        job.time_limit_min = part->conf->default_time_min != kNoVal ? part->conf->default_time_min
                                                                     : part->conf->max_time_min;
    int rc = ctx_.sched->test_job(job, *part);
    if (rc == DROVER_ENOSPC) return "Requested node configuration is not available";
    return {};
}

void JobManager::on_submit(const std::shared_ptr<net::Request> &req,
                           const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_JobSubmitRequest();
    const proto::JobDesc *d = r->desc();
    if (!d || !d->script() || d->script()->size() == 0)
        return resp->error(DROVER_EINVAL, "Batch script is empty!");
    if (jobs_.size() >= ctx_.conf.max_job_count)
        return resp->error(DROVER_EBUSY, "Slurm temporarily unable to accept job, sleeping and retrying");

    auto job = std::make_unique<Job>();
    Job &j = *job;
    j.uid = req->peer.uid;  // the credential says who submitted, never the request
    j.gid = req->peer.gid;
    j.user_name = user_name(j.uid);
    j.name = d->name() && d->name()->size() ? d->name()->str() : "sbatch";
    j.partition = str(d->partition());
    if (auto comma = j.partition.find(','); comma != std::string::npos) j.partition.resize(comma);
    j.account = str(d->account());
    j.min_nodes = d->min_nodes() ? d->min_nodes() : 1;
    j.max_nodes = d->max_nodes() ? d->max_nodes() : (d->min_nodes() ? d->min_nodes() : DROVER_INFINITE);
    j.num_tasks = d->num_tasks() ? d->num_tasks() : j.min_nodes;
    j.cpus_per_task = d->cpus_per_task() ? d->cpus_per_task() : 1;
    j.mem_per_node_mb = d->mem_per_node_mb();
    j.time_limit_min = d->time_limit_min();
    j.exclusive = d->exclusive();
    j.open_append = d->open_mode_append();
    j.work_dir = d->work_dir() && d->work_dir()->size() ? d->work_dir()->str() : "/tmp";
    j.std_out = d->std_out() && d->std_out()->size() ? d->std_out()->str() : "slurm-%j.out";
    j.std_err = str(d->std_err());
    j.std_in = d->std_in() && d->std_in()->size() ? d->std_in()->str() : "/dev/null";
    j.submit_host = str(d->submit_host());
    j.comment = str(d->comment());
    j.command = str(d->command());
    if (j.command.empty()) j.command = "(null)";
    j.submit_time = Ctx::now();
    j.eligible_time = d->begin_time() > j.submit_time ? d->begin_time() : j.submit_time;

    Partition *part = nullptr;
    std::string why = validate(j, part, j.uid, j.gid);
    if (!why.empty()) return resp->error(DROVER_EINVAL, why);

    if (d->test_only()) {
        std::string msg = ctx_.sched->estimate(j, *part, next_id_);
        flatbuffers::FlatBufferBuilder fbb(256);
        auto m = fbb.CreateString(msg);
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobSubmitResponse,
                                        proto::CreateJobSubmitResponse(fbb, 0, 0, m).Union()));
        return resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
    }

    j.id = take_job_id();
    drover_job_view view = Scheduler::view(j);
    const auto &sched = ctx_.plugins.sched();
    j.priority = sched.ops.job_priority ? sched.ops.job_priority(sched.state, &view)
                                        : default_priority(j.id);
    if (d->hold()) {
        j.hold = Hold::User;
        j.priority = 0;
        j.reason = "JobHeldUser";
    } else {
        j.reason = "None";
    }
    uint32_t id = j.id;
    persist(j);
    // The submit request itself is the script record: script, environment and arguments as sent.
    auto key = state::job_key(id);
    ctx_.commit.txn().put(state::Table::Scripts, key, {req->bytes.data(), req->bytes.size()});
    account(DROVER_ACCT_JOB_SUBMIT, j);
    jobs_[id] = std::move(job);
    ctx_.sched->request();

    std::string cluster = ctx_.conf.cluster_name;
    ctx_.commit.after_commit([resp, id, cluster] {
        flatbuffers::FlatBufferBuilder fbb(128);
        auto c = fbb.CreateString(cluster);
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobSubmitResponse,
                                        proto::CreateJobSubmitResponse(fbb, id, c).Union()));
        resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
    });
}

}  // namespace drover::ctld
