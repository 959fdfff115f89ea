// components_fixture.hpp - the controller's node, job, reservation, step and scheduler parts
// built as the controller builds them, over an in-memory store and fake select, sched and auth
// plugins (tables of local functions): no LMDB file, no plugin file, no network. Included by one
// test file each (the fakes keep their state per file).
#pragma once

#include <gtest/gtest.h>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "common/config.hpp"
#include "ctld/acct/acct_queue.hpp"
#include "ctld/acct/acct_recorder.hpp"
#include "ctld/context.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/resv/reservations.hpp"
#include "ctld/sched/placement.hpp"
#include "ctld/sched/scheduler.hpp"
#include "ctld/steps/step_mgr.hpp"
#include "ctld/store/committer.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"
#include "plugin/plugin_set.hpp"
#include "state/store.hpp"

namespace drover::ctld {
namespace {

// The fake select plugin: a job takes its min_nodes lowest free usable nodes, whole.
std::map<uint32_t, std::vector<uint32_t>> held; // job id -> its nodes
std::set<uint32_t> busy;
uint32_t finished_jobs = 0;

int fake_node_init(void *, const drover_node_view *, uint32_t, drover_error *) {
    held.clear();
    busy.clear();
    finished_jobs = 0;
    return DROVER_OK;
}
int fake_job_test(void *, const drover_job_view *job, drover_bitmap_view usable, int mode,
                  drover_bitmap *picked, drover_error *) {
    uint32_t need = std::max(job->min_nodes, 1u), found = 0;
    for (uint32_t i = 0; i < usable.nbits && found < need; ++i) {
        bool free_now = mode == DROVER_SELECT_TEST_ONLY || !busy.count(i);
        if (((usable.words[i / 64] >> (i % 64)) & 1) && free_now) {
            picked->words[i / 64] |= uint64_t{1} << (i % 64);
            ++found;
        }
    }
    return found == need ? DROVER_OK : DROVER_EBUSY;
}
int fake_job_begin(void *, const drover_job_view *job, drover_bitmap_view nodes, drover_error *) {
    for (uint32_t i = 0; i < nodes.nbits; ++i)
        if ((nodes.words[i / 64] >> (i % 64)) & 1) {
            busy.insert(i);
            held[job->job_id].push_back(i);
        }
    return DROVER_OK;
}
int fake_job_fini(void *, const drover_job_view *job, drover_error *) {
    ++finished_jobs;
    for (uint32_t i : held[job->job_id]) busy.erase(i);
    held.erase(job->job_id);
    return DROVER_OK;
}

// A suspended job's nodes are free for others; resumed, it holds them again.
int fake_job_suspend(void *, const drover_job_view *job, drover_error *) {
    for (uint32_t i : held[job->job_id]) busy.erase(i);
    return DROVER_OK;
}
int fake_job_resume(void *, const drover_job_view *job, drover_error *) {
    for (uint32_t i : held[job->job_id]) busy.insert(i);
    return DROVER_OK;
}

// The fake sched plugin: every pending job in the order given, as sched/builtin without its
// stop at the first that does not fit.
int fake_schedule(void *, const drover_sched_host *host, drover_sched_pass *pass, drover_error *) {
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < host->pending_count(pass); ++i)
        ids.push_back(host->pending_job(pass, i)->job_id);
    for (uint32_t id : ids) host->try_start(pass, id);
    return DROVER_OK;
}

plugin::Bound<drover_select_ops> fake_select() {
    plugin::Bound<drover_select_ops> b;
    b.id = "select/fake";
    b.ops.struct_size = sizeof b.ops;
    b.ops.node_init = fake_node_init;
    b.ops.job_test = fake_job_test;
    b.ops.job_begin = fake_job_begin;
    b.ops.job_fini = fake_job_fini;
    b.ops.job_suspend = fake_job_suspend;
    b.ops.job_resume = fake_job_resume;
    return b;
}

// The fake auth plugin: a credential is the signer's uid, then the hash.
int fake_cred_create(void *, uint32_t uid, uint32_t, const uint8_t hash[32], uint8_t *cred,
                     uint32_t *len, drover_error *) {
    std::memcpy(cred, &uid, 4);
    std::memcpy(cred + 4, hash, 32);
    *len = 36;
    return DROVER_OK;
}

bool inject_fakes(plugin::PluginSet &plugins) {
    plugin::Bound<drover_auth_ops> auth;
    auth.id = "auth/fake";
    auth.ops.struct_size = sizeof auth.ops;
    auth.ops.cred_create = fake_cred_create;
    plugins.inject(auth);
    plugin::Bound<drover_sched_ops> b;
    b.id = "sched/fake";
    b.ops.struct_size = sizeof b.ops;
    b.ops.schedule = fake_schedule;
    plugins.inject(b);
    plugins.inject(fake_select());
    return true;
}

constexpr const char *kConf = "ClusterName=unit\n"
                              "SlurmctldHost=localhost\n"
                              "NodeName=n[1-2] CPUs=4 RealMemory=1000 State=UNKNOWN\n"
                              "PartitionName=batch Nodes=n[1-2] Default=YES MaxTime=60 State=UP\n";

// The controller's parts, built in the order InControl builds them.
struct Cluster {
    Config conf = parse_config(kConf, "slurm.conf");
    boost::asio::io_context io{1};
    plugin::PluginSet plugins{conf, "ctld"};
    bool fakes = inject_fakes(plugins);
    net::Authenticator auth{plugins.auth()};
    state::Store store{state::Store::InMemory{}};
    Committer commit{io, store};
    net::CallPool pool{io, 1};
    AcctQueue acct{io, plugins.acct_calls(), conf.cluster_name, [](uint64_t) {}};
    AcctRecorder recorder{commit, store, acct};
    Events events;
    Ctx ctx{io, conf, plugins, auth, store, commit, pool, acct, events, 0, "unit", &recorder};
    NodeManager nodes{ctx};
    Placement place{plugins.select_calls(), nodes};
    JobManager jobs{ctx, nodes, place};
    StepManager steps{ctx, nodes, jobs};
    Reservations resv{ctx, nodes, jobs};
    Scheduler sched{ctx, nodes, jobs, place, resv};
    std::vector<uint32_t> started, ended;
    int queue_changes = 0;

    Cluster() {
        for (uint32_t i = 0; i < nodes.size(); ++i) nodes.mark_up(i);
        // As InControl wires it: a partition with pending or running jobs is not deleted.
        nodes.set_partition_in_use([this](const std::string &part) {
            auto in = [&](const Job *j) { return j->partition == part; };
            return std::ranges::any_of(jobs.pending(), in) ||
                   std::ranges::any_of(jobs.running(), in);
        });
        sched.init_select();
        events.job_started.subscribe([this](const Job &j) { started.push_back(j.id); });
        events.job_ended.subscribe([this](const Job &j) { ended.push_back(j.id); });
        events.queue_changed.subscribe([this] { ++queue_changes; });
    }
    // A one-node batch job of user 1000 (srun's allocation when interactive), pending in
    // partition batch.
    Job &submit(uint32_t limit_min = 10, bool interactive = false) {
        auto j = std::make_unique<Job>();
        j->uid = j->gid = 1000;
        j->user_name = j->name = j->account = "unit";
        j->partition = "batch";
        j->min_nodes = j->max_nodes = j->num_tasks = 1;
        j->time_limit_min = limit_min;
        j->submit_time = j->eligible_time = Ctx::now();
        j->work_dir = "/tmp";
        j->interactive = interactive;
        return *jobs.find(jobs.adopt(std::move(j)));
    }
};

} // namespace
} // namespace drover::ctld
