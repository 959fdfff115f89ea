// job_submit.cpp - sbatch's request: validation against partitions and node selection, the new
// job's record, and the reply once both are durable.
#include <grp.h>

#include <pwd.h>
#include <spdlog/spdlog.h>

#include "common/error.hpp"
#include "common/gpu_bind.hpp"
#include "common/gres.hpp"
#include "common/hostlist.hpp"
#include "common/timefmt.hpp"
#include "ctld/jobs/job_signal_spec.hpp"
#include "ctld/privacy.hpp"
#include "ctld/store/committer.hpp"
#include "ctld/nodes/features.hpp"
#include "ctld/jobs/job_codec.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/jobs/job_submit_hook.hpp"
#include "ctld/jobs/job_record.hpp"
#include "ctld/jobs/job_script.hpp"
#include "ctld/fed/federation.hpp"
#include "ctld/jobs/partition_list.hpp"

#include "ctld/acct/acct_queue.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/events.hpp"
#include "ctld/sched/placement.hpp"
#include "plugin/plugin_set.hpp"
#include "state/store.hpp"

namespace drover::ctld {

namespace {

constexpr const char *kStoreFull =
    "Unable to save the job: the controller's state store is full (StateSaveMaxSize); "
    "finished jobs free room once they are purged (MinJobAge)";

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

// Slurm's basic priority: each later submission one lower than the one before (so the longer a
// job has waited, the higher it stands), moved down by its nice value.
uint32_t default_priority(uint32_t id, int32_t nice) {
    constexpr int64_t kTop = 0xffff0000LL;
    return uint32_t(std::clamp<int64_t>(kTop - int64_t(id) - nice, 1, 0xfffffffeLL));
}

// "0-15", "1,3,5", "0-15:4", each with an optional "%N" throttle.
std::string parse_array_spec(const std::string &spec, uint32_t max_size, ArrayInfo *out) {
    std::string body = spec;
    if (auto pct = body.find('%'); pct != std::string::npos) {
        try {
            out->max_running = uint32_t(std::stoul(body.substr(pct + 1)));
        } catch (const std::exception &) {
            return "Invalid job array specification";
        }
        body.resize(pct);
    }
    std::vector<uint32_t> ids;
    std::size_t at = 0;
    while (at <= body.size()) {
        std::size_t end = body.find(',', at);
        if (end == std::string::npos) end = body.size();
        std::string part = body.substr(at, end - at);
        at = end + 1;
        try {
            std::size_t used = 0;
            uint32_t step = 1;
            if (auto colon = part.find(':'); colon != std::string::npos) {
                step = uint32_t(std::stoul(part.substr(colon + 1), &used));
                if (step == 0 || used != part.size() - colon - 1)
                    return "Invalid job array specification";
                part.resize(colon);
            }
            auto dash = part.find('-');
            uint32_t lo = uint32_t(std::stoul(part.substr(0, dash), &used));
            if (used != (dash == std::string::npos ? part.size() : dash))
                return "Invalid job array specification";
            uint32_t hi = lo;
            if (dash != std::string::npos) {
                hi = uint32_t(std::stoul(part.substr(dash + 1), &used));
                if (used != part.size() - dash - 1) return "Invalid job array specification";
            }
            if (hi < lo) return "Invalid job array specification";
            if (hi >= max_size) return "Invalid job array specification";
            for (uint64_t v = lo; v <= hi; v += step) ids.push_back(uint32_t(v));
            if (step > 1) out->step = step;
        } catch (const std::exception &) {
            return "Invalid job array specification";
        }
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    if (ids.empty()) return "Invalid job array specification";
    out->pending = std::move(ids);
    out->min_task = out->pending.front();
    out->max_task = out->pending.back();
    out->count = uint32_t(out->pending.size());
    return {};
}

uint32_t resolve_share(const std::string &part_oversubscribe, bool exclusive, bool oversubscribe) {
    std::string_view base =
        std::string_view(part_oversubscribe).substr(0, part_oversubscribe.find(':'));
    if (base == "EXCLUSIVE") return DROVER_SHARE_EXCLUSIVE;
    if (base == "FORCE") return DROVER_SHARE_OVERSUB;
    if (exclusive) return DROVER_SHARE_EXCLUSIVE;
    if (base == "YES" && oversubscribe) return DROVER_SHARE_OVERSUB;
    return DROVER_SHARE_CORES;
}

} // namespace

// The new job from its submission: the fields JobCodec copies as they are (job_codec.hpp), then
// those that take a default, a check or the controller's settings.
Status JobManager::read_request(Job &j, const proto::JobDescT &d, bool admin) {
    JobExtra x;
    bool any_extra = codec::from_desc(d, j, x);
    j.name = d.name.empty() ? "sbatch" : d.name;
    j.partition = d.partition; // -p a,b: validate() keeps the partitions that take the job
    j.min_nodes = d.min_nodes ? d.min_nodes : 1;
    j.max_nodes = d.max_nodes ? d.max_nodes : (d.min_nodes ? d.min_nodes : DROVER_INFINITE);
    j.num_tasks = d.num_tasks ? d.num_tasks : j.min_nodes;
    j.cpus_per_task = d.cpus_per_task ? d.cpus_per_task : 1;
    j.work_dir = d.work_dir.empty() ? "/tmp" : d.work_dir;
    j.std_out = !d.std_out.empty() ? d.std_out
                : !d.array.empty() ? "slurm-%A_%a.out"
                                   : "slurm-%j.out";
    j.std_err = d.std_err;
    j.std_in = d.std_in.empty() ? "/dev/null" : d.std_in;
    j.command = d.command.empty() ? "(null)" : d.command;
    j.submit_time = Ctx::now();
    j.eligible_time = std::max(d.begin_time, j.submit_time);
    if (j.mem_per_cpu_mb && j.mem_per_node_mb)
        return invalid("--mem and --mem-per-cpu are mutually exclusive.");
    if (d.nice < 0 && !admin) return access_denied();
    if (d.nice < -2147483645 || d.nice > 2147483645) return invalid("Invalid nice value");
    j.nice = d.nice;
    j.requeue = d.requeue != 0;
    if (j.interactive && !d.array.empty())
        return invalid("--array is not valid for an interactive allocation");
    j.kill_on_invalid_dep =
        d.kill_on_invalid_dep == 1 ||
        (d.kill_on_invalid_dep == -1 &&
         ctx_.conf.dependency_parameters.find("kill_invalid_depend") != std::string::npos);
    if (any_extra || !d.dependency.empty()) {
        if (!valid_gres_request(x.gres)) {
            spdlog::info("job submission refused: invalid --gres '{}'", x.gres);
            return invalid(kInvalidGres);
        }
        if (!x.licenses.empty())
            if (Status s = licenses_.read_ask(x.licenses); !s.ok()) return s;
        try {
            if (!x.gpu_bind.empty()) (void)parse_gpu_bind(x.gpu_bind);
        } catch (const ParseError &e) {
            return invalid(e.what());
        }
        // -w/-x bitmaps and --signal's parts, as a restart derives them again from the record.
        auto index = [this](const std::string &n) { return nodes_.index_of(n); };
        if (auto why = derive_job_fields(x, index, nodes_.size()); !why.empty())
            return invalid(why);
        if (x.req_bits.size() && j.min_nodes < x.req_bits.count()) {
            j.min_nodes = uint32_t(x.req_bits.count());
            if (j.max_nodes != DROVER_INFINITE && j.max_nodes < j.min_nodes)
                j.max_nodes = j.min_nodes;
        }
        if (!d.dependency.empty())
            if (Status s = read_dependency(d.dependency, 0, &x.orig_dependency, &x.dependency);
                !s.ok())
                return s;
        j.extra = std::make_shared<const JobExtra>(std::move(x));
    }
    if (!d.array.empty()) {
        j.array = std::make_shared<ArrayInfo>();
        if (auto why = parse_array_spec(d.array, ctx_.conf.max_array_size, j.array.get());
            !why.empty())
            return invalid(why);
    }
    return {};
}

namespace {

// -p a,b: every name must be a partition; the job is checked (by one) against each, and keeps
// those that take it (in the order given) with the settings of the first (its time limit,
// sharing). None taking it: the first one's refusal.
Status validate_each(Job &job, Partition *&part, const NodeManager &nodes,
                     const std::function<Status(Job &, Partition *&)> &one) {
    const std::vector<std::string> names = partition_names(job.partition);
    for (const auto &name : names)
        if (!nodes.partition(name)) return invalid("Invalid partition name specified");
    Status first;
    std::string taken;
    for (const auto &name : names) {
        Job tried = job;
        tried.partition = name;
        Partition *p = nullptr;
        Status s = one(tried, p);
        if (!s.ok()) {
            if (first.ok()) first = s;
            continue;
        }
        if (taken.empty()) {
            part = p;
            job = std::move(tried);
        }
        taken += (taken.empty() ? "" : ",") + name;
    }
    if (taken.empty()) return first;
    job.partition = taken;
    return {};
}

} // namespace

Status JobManager::validate(Job &job, Partition *&part, uint32_t uid, uint32_t gid) {
    if (is_partition_list(job.partition))
        return validate_each(job, part, nodes_,
                             [&](Job &one, Partition *&p) { return validate(one, p, uid, gid); });
    part = job.partition.empty() ? nodes_.default_partition() : nodes_.partition(job.partition);
    if (!part) {
        return invalid(job.partition.empty() ? "No partition specified or system default partition"
                                             : "Invalid partition name specified");
    }
    job.partition = part->conf->name;
    job.share = resolve_share(part->conf->oversubscribe, job.exclusive, job.oversubscribe);
    if (part->state == "INACTIVE" || part->state == "DRAIN")
        return invalid("Requested partition configuration not available now");
    if (!user_in_groups(uid, gid, part->allow_gids))
        return invalid("User's group not permitted to use this partition");
    // The user's default account (sacctmgr) when -A was not given; with
    // AccountingStorageEnforce=associations, an account the user is associated with.
    if (std::string why = ctx_.acct.assocs().check_job(
            acct_enforce_associations(ctx_.conf.accounting_storage_enforce), ctx_.conf.cluster_name,
            user_name(uid), job.account, job.partition);
        !why.empty())
        return invalid(why);
    if (resv_check_)
        if (std::string why = resv_check_(job); !why.empty()) return invalid(why);
    const auto &accounts = part->conf->allow_accounts;
    if (!accounts.empty() &&
        std::find(accounts.begin(), accounts.end(), job.account) == accounts.end())
        return invalid("Invalid account or account/partition combination specified");
    if (job.min_nodes > part->nodes.count()) return invalid("Node count specification invalid");
    if (job.max_nodes != DROVER_INFINITE && job.max_nodes < job.min_nodes)
        return invalid("Node count specification invalid");
    // More CPUs than the whole partition has: Slurm's words for it, not "not available".
    uint64_t part_cpus = 0;
    for (std::size_t i = part->nodes.next(0); i < part->nodes.size(); i = part->nodes.next(i + 1))
        part_cpus += nodes_.at(uint32_t(i)).conf->cpus;
    if (uint64_t(std::max(1u, alloc_tasks(job))) * std::max(1u, job.cpus_per_task) > part_cpus)
        return invalid("More processors requested than permitted");
    // A feature no node of the partition has can never be satisfied.
    for (const auto &name : constraint_names(job.ext().constraint)) {
        bool known = false;
        for (std::size_t i = part->nodes.next(0); i < part->nodes.size() && !known;
             i = part->nodes.next(i + 1))
            for (const auto &f : nodes_.at(uint32_t(i)).conf->features) known = known || f == name;
        if (!known) return invalid("Invalid feature specification");
    }
    // helpers.conf's MutuallyExclusive: one node cannot boot with both.
    if (std::string both = nodes_.conflicting_features(job.ext().constraint); !both.empty())
        return invalid("Invalid feature specification (mutually exclusive: " + both + ")");
    if (job.time_limit_min == kNoVal)
        job.time_limit_min = part->conf->default_time_min != kNoVal ? part->conf->default_time_min
                                                                    : part->conf->max_time_min;
    int rc = place_.test_job(job, *part);
    if (rc == DROVER_ENOSPC) return invalid("Requested node configuration is not available");
    return check_policy(job, uid);
}

Status JobManager::check_policy(Job &job, uint32_t uid) {
    const auto pol = policy();
    if (std::string why = pol.choose_qos(job); !why.empty()) return invalid(why);
    // A new job counts against the submit limits; one being updated is counted already.
    if (job.id != 0) return {};
    std::string limit;
    if (std::string why = pol.check_submit(job, usage_, &limit); !why.empty()) {
        spdlog::info("submission from uid {} refused: {} ({})", uid, why, limit);
        return invalid(why);
    }
    return {};
}

uint32_t JobManager::initial_priority(const Job &job) const {
    if (priority_source_)
        if (auto p = priority_source_(job)) return *p;
    return ctx_.plugins.sched_calls()
        .job_priority(codec::job_view(job))
        .value_or(default_priority(job.id, job.nice));
}

uint32_t JobManager::adopt(std::unique_ptr<Job> job) {
    job->id = take_job_id();
    job->priority = initial_priority(*job);
    if (job->reason.empty()) job->reason = "None";
    uint32_t id = job->id;
    persist(*job);
    jobs_[id] = std::move(job);
    return id;
}

void JobManager::on_submit(const std::shared_ptr<net::Request> &req,
                           const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_JobSubmitRequest();
    const proto::JobDesc *d = r->desc();
    if (!d || ((!d->script() || d->script()->size() == 0) && !d->interactive()))
        return resp->error(DROVER_EINVAL, "Batch script is empty!");
    // SchedulerParameters=max_script_size: Slurm refuses a larger script with
    // ESLURM_PATHNAME_TOO_LONG, whose text this is.
    if (d->script() && d->script()->size() > ctx_.conf.max_script_size) {
        spdlog::info(
            "submission from uid {} refused: batch script of {} bytes exceeds max_script_size {}",
            req->peer.uid, d->script()->size(), ctx_.conf.max_script_size);
        return resp->error(DROVER_EINVAL,
                           "Pathname of a file, directory or other parameter too long");
    }
    // MaxJobCount: Slurm answers EAGAIN, on which sbatch and salloc wait and try again
    // (cli::call_ctld_retrying), and which they print as this when they give up.
    if (jobs_.size() >= ctx_.conf.max_job_count) {
        spdlog::debug("submission from uid {} refused for now: MaxJobCount {} reached",
                      req->peer.uid, ctx_.conf.max_job_count);
        return resp->error(DROVER_EBUSY, "Resource temporarily unavailable");
    }

    if (r->het() && r->het()->size()) return submit_het(req, resp);

    auto job = std::make_unique<Job>();
    Job &j = *job;
    j.uid = req->peer.uid; // the credential says who submitted, never the request
    j.gid = req->peer.gid;
    std::string user_msg;
    Partition *part = nullptr;
    Status s = build_job(*d, j, part, &user_msg);
    if (s.ok()) s = choose_siblings(j);
    if (!s.ok()) return resp->error(s.code(), s.text());

    if (d->test_only()) {
        std::string msg = place_.estimate(j, *part, next_id_);
        flatbuffers::FlatBufferBuilder fbb(256);
        auto m = fbb.CreateString(msg);
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobSubmitResponse,
                                        proto::CreateJobSubmitResponse(fbb, 0, 0, m).Union()));
        return resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
    }

    // The job's record and the request itself (its script record) must fit in the state store,
    // with room to spare for what the jobs already accepted will still write.
    if (!ctx_.commit.room_for(req->bytes.size() + 1024)) {
        spdlog::warn(
            "submission from uid {} refused: the state store in {} is full (StateSaveMaxSize={}M)",
            j.uid, ctx_.store.dir(), ctx_.conf.state_save_max_size_mb);
        return resp->error(DROVER_ENOSPC, kStoreFull);
    }
    j.id = take_job_id();
    if (j.array) {
        j.array_job_id = j.id;
        auto meta = std::make_shared<ArrayMeta>();
        meta->count = j.array->count;
        meta->min_task = j.array->min_task;
        meta->max_task = j.array->max_task;
        meta->step = j.array->step;
        j.array_meta = std::move(meta);
        arrays_[j.id].total = j.array->count;
        arrays_[j.id].pending = j.array->count;
    }
    queue_as_new(j, d->hold());
    uint32_t id = j.id;
    enter(std::move(job), req->bytes);
    answer_submit(resp, id, std::move(user_msg));
}

void JobManager::queue_as_new(Job &j, bool hold) {
    j.priority = initial_priority(j);
    j.reason = "None";
    if (hold) { // -H: held by its user, at priority 0
        j.hold = Hold::User;
        j.priority = 0;
        j.reason = "JobHeldUser";
    }
}

Status JobManager::build_job(const proto::JobDesc &d, Job &j, Partition *&part,
                             std::string *user_msg) {
    j.user_name = user_name(j.uid);
    proto::JobDescT desc;
    d.UnPackTo(&desc);
    // JobSubmitPlugins see and may change the request before anything is checked.
    Status s =
        run_job_submit(ctx_.plugins.job_submit_calls(), desc, j.uid, j.gid, j.user_name, user_msg);
    if (s.ok()) s = read_request(j, desc, ctx_.is_admin(j.uid));
    if (s.ok()) s = validate(j, part, j.uid, j.gid);
    return s;
}

void JobManager::answer_submit(const net::ResponderPtr &resp, uint32_t id, std::string user_msg) {
    std::string cluster = ctx_.conf.cluster_name;
    ctx_.commit.after_commit([resp, id, cluster, user_msg = std::move(user_msg)] {
        flatbuffers::FlatBufferBuilder fbb(128);
        auto c = fbb.CreateString(cluster);
        auto msg = user_msg.empty() ? 0 : fbb.CreateString(user_msg);
        fbb.Finish(
            proto::CreateMessage(fbb, proto::Body::JobSubmitResponse,
                                 proto::CreateJobSubmitResponse(fbb, id, c, 0, msg).Union()));
        resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
    });
}

void JobManager::enter(std::unique_ptr<Job> job, std::span<const uint8_t> submission) {
    uint32_t id = job->id;
    persist(*job);
    // The submit request itself is the script record: script, environment and arguments as sent.
    // (A heterogeneous job's other components have none: the leader's is theirs.)
    if (!submission.empty())
        ctx_.commit.txn().put(state::Table::Scripts, state::job_key(id), submission);
    account(DROVER_ACCT_JOB_SUBMIT, *job);
    jobs_[id] = std::move(job);
    ctx_.events.queue_changed.publish();
}

Status JobManager::choose_siblings(Job &j) {
    const FedView *view = ctx_.fed ? &ctx_.fed->view() : nullptr;
    const uint32_t self = view ? view->self_id() : 0;
    if (!self) return Status();
    JobExtra &x = j.mutable_extra();
    // Arrays, allocations (salloc, srun) and heterogeneous jobs run on the origin only.
    x.siblings_viable = j.array || j.interactive || x.het_size
                            ? fed_bit(self)
                            : viable_members(*view, x.fed_clusters, x.cluster_features);
    if (!x.siblings_viable) return invalid("No eligible clusters for federated job");
    x.siblings_active = x.siblings_viable & fed_bit(self);
    // Not one this cluster may run: it only tracks the job for its siblings.
    if (!x.siblings_active) j.state_flags |= DROVER_JOB_FLAG_REVOKED;
    return Status();
}

Status JobManager::enter_sibling(std::span<const uint8_t> submission, uint32_t id, uint32_t uid,
                                 uint32_t gid, uint64_t viable) {
    const proto::Message *m = stored_submission(submission);
    const proto::JobDesc *d = m ? m->body_as_JobSubmitRequest()->desc() : nullptr;
    if (!d) return invalid("sibling job " + std::to_string(id) + ": no job in the submission");
    if (Job *old = find(id)) {
        if (!old->finished()) return Status(); // the origin said it again
        forget(id); // revoked earlier; the origin sends it again (released, requeued)
    }
    auto job = std::make_unique<Job>();
    Job &j = *job;
    j.uid = uid;
    j.gid = gid;
    j.user_name = user_name(uid);
    proto::JobDescT desc;
    d->UnPackTo(&desc);
    Partition *part = nullptr;
    Status s = read_request(j, desc, ctx_.is_admin(uid));
    if (s.ok()) s = validate(j, part, uid, gid);
    if (!s.ok()) return s;
    j.id = id;
    JobExtra &x = j.mutable_extra();
    x.siblings_viable = viable;
    // The origin sends it once its dependencies hold (on jobs this cluster may not know).
    x.dependency = {};
    x.orig_dependency.clear();
    j.priority = initial_priority(j);
    j.reason = "None";
    enter(std::move(job), submission);
    return Status();
}

} // namespace drover::ctld
