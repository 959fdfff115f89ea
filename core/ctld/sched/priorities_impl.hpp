// priorities_impl.hpp - the state of Priorities (priorities.hpp), shared by its ticks
// (priorities.cpp) and its answers to sprio and sshare (priority_routes.cpp).
#pragma once

#include <drover/priority.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/steady_timer.hpp>

#include "ctld/policy/fs_tree.hpp"
#include "ctld/policy/usage_ledger.hpp"
#include "ctld/sched/priorities.hpp"
#include "plugin/priority_calls.hpp"

namespace drover::ctld {

struct Priorities::Impl {
    Ctx &ctx;
    NodeManager &nodes;
    JobManager &jobs;
    plugin::PriorityCalls calls;
    policy::UsageLedger ledger;
    policy::FsTree tree; // ranked by the plugin; rebuilt when usage or associations change
    boost::asio::steady_timer timer;
    drover_priority_cluster totals{}; // the cluster's sizes and top priorities, per ranking

    Impl(Ctx &c, NodeManager &n, JobManager &j);

    // One PriorityCalcPeriod: charge running jobs, decay, reset, save, rank, reprioritise.
    void tick(bool starting);
    void rebuild_and_rank();
    // Charges job its billing-seconds from the later of its start and the last tick to until,
    // into the ledger and (save) the current batch.
    void charge_end(const Job &job, int64_t until);
    // What the job is charged per second (CPUs x its QOS's UsageFactor; 0 without an
    // association), and the keys charged (its association and each parent).
    double charge_rate(const Job &job, std::vector<std::string> *keys) const;
    // What computing priorities looks up once per association, QOS and partition, however many
    // jobs share it (a pass over 100,000 jobs asks about a few thousand of each).
    // The keys are views of the jobs' own strings, valid for the pass.
    struct Who {
        std::string_view user, account, partition;
        bool operator==(const Who &) const = default;
    };
    struct WhoHash {
        std::size_t operator()(const Who &w) const {
            std::hash<std::string_view> h;
            return h(w.user) ^ (h(w.account) * 31) ^ (h(w.partition) * 131);
        }
    };
    struct Lookups {
        int64_t now = Ctx::now();                            // one clock for the pass
        std::unordered_map<Who, uint32_t, WhoHash> assoc;    // -> tree index
        std::unordered_map<std::string_view, uint32_t> qos;  // name -> Priority
        std::unordered_map<std::string_view, uint32_t> part; // name -> PriorityJobFactor
    };
    // The job's priority and factors from the last ranking.
    uint32_t compute(const Job &job, drover_priority_factors *out, Lookups &seen) const;
    drover_priority_cluster cluster() const;
    // Sets every pending job's priority again (not held ones, nor those an administrator set).
    void reprioritise();
    // Writes an association's usage record (save_all: every one, and the clock) into the batch.
    void save(const std::string &assoc_key);
    void save_all();
};

} // namespace drover::ctld
