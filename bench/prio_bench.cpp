// prio_bench.cpp - the cost of one priority/multifactor recomputation, in one process: the
// controller's parts as droverctld builds them (core/ctld, no network), --assocs user
// associations under --assocs/10 accounts, each with some decayed usage in the state store, and
// --jobs pending jobs spread over them. Times Priorities::start(), which does what every
// PriorityCalcPeriod does: read the usage, charge running jobs, decay, write the usage back,
// rank the tree (Fair Tree, and classic with --classic) and set every pending job's priority.
// Target (site policy issue): under 100 ms for 100,000 jobs over 10,000 associations.
//
//   prio_bench [--jobs N] [--assocs N] [--classic]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <vector>

#include <boost/asio/io_context.hpp>
#include <spdlog/spdlog.h>

#include "ctld/acct/acct_queue.hpp"
#include "ctld/acct/acct_recorder.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/policy/usage_ledger.hpp"
#include "ctld/sched/placement.hpp"
#include "ctld/sched/priorities.hpp"
#include "ctld/store/committer.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"
#include "plugin/plugin_set.hpp"
#include "state/store.hpp"

namespace {

using namespace drover;
using Clock = std::chrono::steady_clock;

std::string config_text(const std::string &dir, bool classic) {
    return "ClusterName=bench\nSlurmctldHost=localhost(127.0.0.1)\nSlurmdPort=9\n"
           "StateSaveLocation=" +
           dir +
           "\nMaxJobCount=1000000\n"
           "PriorityType=priority/multifactor\nPriorityWeightFairshare=100000\n"
           "PriorityWeightAge=1000\nPriorityWeightJobSize=1000\nPriorityWeightQOS=1000\n" +
           (classic ? "PriorityFlags=NO_FAIR_TREE\n" : "") +
           "NodeName=b[1-1000] CPUs=32 RealMemory=128000 State=UNKNOWN\n"
           "PartitionName=batch Nodes=b[1-1000] Default=YES MaxTime=INFINITE State=UP\n";
}

// The association tree: root, accounts a0..., users u0... (ten per account).
std::vector<ctld::AssocRec> tree(uint32_t users) {
    std::vector<ctld::AssocRec> recs{ctld::AssocRec::cluster_rec("bench"),
                                     ctld::AssocRec::assoc("bench", "root", "", "", "")};
    for (uint32_t a = 0; a < std::max(1u, users / 10); ++a)
        recs.push_back(ctld::AssocRec::assoc("bench", "a" + std::to_string(a), "", "", "root"));
    for (uint32_t u = 0; u < users; ++u)
        recs.push_back(ctld::AssocRec::assoc("bench", "a" + std::to_string(u / 10),
                                             "u" + std::to_string(u), "", ""));
    return recs;
}

// Decayed usage for every user association and its parents, as a running cluster has.
void usage(state::Store &store, const std::vector<ctld::AssocRec> &recs) {
    std::mt19937_64 rng(7);
    ctld::policy::UsageLedger l;
    for (const auto &r : recs)
        if (!r.user.empty())
            l.charge({r.key(), ctld::AssocRec::assoc("bench", r.account, "", "", "root").key(),
                      recs[1].key()},
                     double(rng() % 1'000'000));
    auto txn = store.begin();
    for (const auto &[k, u] : l.all()) {
        auto key = ctld::policy::UsageLedger::record_key(k);
        auto val = ctld::policy::UsageLedger::encode_usage(u);
        txn.put(state::Table::Meta, {key.data(), key.size()}, {val.data(), val.size()});
    }
    txn.commit();
}

void run(uint32_t njobs, uint32_t nassocs, bool classic) {
    std::string tmpl = "/tmp/drover-prio-bench-XXXXXX";
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    const std::string dir = tmpl;
    {
        Config conf = parse_config(config_text(dir + "/state", classic), dir + "/slurm.conf", dir);
        boost::asio::io_context io(1);
        plugin::PluginSet plugins(conf, "ctld");
        plugins.load("select/linear");
        plugins.load("sched/builtin");
        plugins.load("priority/multifactor");
        net::Authenticator auth(plugins.auth());
        state::Store store(conf.state_save_location, false);
        ctld::Committer commit(io, store);
        net::CallPool pool(io, 1);
        ctld::AcctQueue acct(io, plugins.acct(), conf.cluster_name, [](uint64_t) {});
        ctld::AcctRecorder recorder(commit, store, acct);
        ctld::Events events;
        ctld::Ctx ctx{io,   conf, plugins, auth, store,   commit,
                      pool, acct, events,  0,    "bench", &recorder};
        ctld::NodeManager nodes(ctx);
        ctld::Placement place(plugins.select_calls(), nodes);
        ctld::JobManager jobs(ctx, nodes, place);
        ctld::Priorities prio(ctx, nodes, jobs);
        const auto recs = tree(nassocs);
        usage(store, recs);
        acct.assocs().replace(recs);
        const int64_t now = ctld::Ctx::now();
        for (uint32_t i = 0; i < njobs; ++i) {
            auto j = std::make_unique<ctld::Job>();
            const uint32_t u = i % nassocs;
            j->user_name = "u" + std::to_string(u);
            j->account = "a" + std::to_string(u / 10);
            j->partition = "batch";
            j->num_tasks = 1 + i % 64;
            j->submit_time = j->eligible_time = now - int64_t(i % 86400);
            jobs.adopt(std::move(j));
        }
        commit.flush();
        const auto t0 = Clock::now();
        prio.start();
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        std::printf("priority/multifactor %-9s %7u pending %6u associations %9.1f ms  target < "
                    "100 ms\n",
                    classic ? "classic" : "fair-tree", njobs, nassocs, ms);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

} // namespace

int main(int argc, char **argv) {
    uint32_t jobs = 100000, assocs = 10000;
    bool classic = false;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        if (k == "--jobs" && i + 1 < argc)
            jobs = uint32_t(std::stoul(argv[++i]));
        else if (k == "--assocs" && i + 1 < argc)
            assocs = uint32_t(std::stoul(argv[++i]));
        else if (k == "--classic")
            classic = true;
        else {
            std::fprintf(stderr, "usage: prio_bench [--jobs N] [--assocs N] [--classic]\n");
            return 2;
        }
    }
    spdlog::set_level(spdlog::level::warn);
    run(jobs, std::max(1u, assocs), classic);
    std::printf(
        "(Slurm's figure is not printed: slurmctld's recomputation cannot be timed alone.)\n");
    return 0;
}
