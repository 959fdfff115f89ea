// metrics.cpp - the controller's OpenMetrics endpoints.
#include "ctld/metrics/metrics.hpp"

#include <drover/views.h>

#include <algorithm>
#include <span>
#include <map>

#include "common/ascii.hpp"
#include "common/config.hpp"
#include "ctld/context.hpp"
#include "ctld/ctld_stats.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/metrics/openmetrics_text.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/store/committer.hpp"
#include "ctld/store/repl_source.hpp"
#include "plugin/plugin_set.hpp"
#include "state/store.hpp"

namespace drover::ctld {

namespace {

// Each endpoint and what writes its page: what a GET serves, and what /metrics lists.
struct Endpoint {
    const char *path;
    std::string (Metrics::*text)();
};

// The pending and running jobs of one partition, user or account, and the CPUs the running hold.
struct JobCounts {
    uint64_t pending = 0, running = 0, cpus_alloc = 0;
    void add(const Job &j) {
        if (j.pending()) ++pending;
        if (j.running()) ++running, cpus_alloc += j.alloc_cpus;
    }
};

std::string node_state_label(uint32_t state) {
    switch (state) {
    case DROVER_NODE_DOWN:
        return "down";
    case DROVER_NODE_IDLE:
        return "idle";
    case DROVER_NODE_ALLOCATED:
        return "allocated";
    case DROVER_NODE_MIXED:
        return "mixed";
    case DROVER_NODE_FUTURE:
        return "future";
    default:
        return "unknown";
    }
}

constexpr double kMb = 1024.0 * 1024.0;

// A family made of one of sdiag's values (stats_values' key), scaled (microseconds to seconds).
struct StatMetric {
    const char *name, *type, *help, *key;
    double scale = 1;
};

constexpr StatMetric kJobStats[] = {
    {"slurm_jobs_submitted", "counter", "Jobs submitted since the counts began", "jobs_submitted"},
    {"slurm_jobs_started", "counter", "Jobs started since the counts began", "jobs_started"},
    {"slurm_jobs_completed", "counter", "Jobs completed since the counts began", "jobs_completed"},
    {"slurm_jobs_cancelled", "counter", "Jobs cancelled since the counts began", "jobs_canceled"},
    {"slurm_jobs_failed", "counter", "Jobs failed since the counts began", "jobs_failed"},
};

// The backfill rows are there only when the sched plugin keeps backfill counters.
constexpr StatMetric kSchedulerStats[] = {
    {"slurm_controller_start_time_seconds", "gauge", "When the controller took control",
     "server_start"},
    {"slurm_sched_cycles", "counter", "Main scheduler passes", "schedule_cycles"},
    {"slurm_sched_cycle_seconds", "counter", "Time the main scheduler's passes took",
     "schedule_cycle_sum", 1e-6},
    {"slurm_sched_cycle_last_seconds", "gauge", "The last main scheduler pass",
     "schedule_cycle_last", 1e-6},
    {"slurm_sched_cycle_max_seconds", "gauge", "The longest main scheduler pass",
     "schedule_cycle_max", 1e-6},
    {"slurm_sched_depth", "counter", "Jobs the main scheduler's passes tried",
     "schedule_cycle_depth"},
    {"slurm_sched_queue_length", "gauge", "Pending jobs the last pass was given",
     "schedule_queue_length"},
    {"slurm_backfill_cycles", "counter", "Backfill passes", "bf_cycles"},
    {"slurm_backfilled_jobs", "counter", "Jobs started by backfill", "bf_backfilled_jobs"},
    {"slurm_backfill_cycle_last_seconds", "gauge", "The last backfill pass", "bf_last_cycle_usec",
     1e-6},
    {"slurm_backfill_last_depth", "gauge", "Jobs the last backfill pass looked at",
     "bf_last_depth"},
    {"slurm_accounting_queue", "gauge", "Accounting records not yet in the accounting store",
     "dbd_agent_queue_size"},
};

void add_stats(OpenMetricsText &t, const StatValues &values, std::span<const StatMetric> rows) {
    for (const auto &row : rows) {
        auto it = std::ranges::find_if(
            values, [&](const auto &v) { return std::string_view(v.first) == row.key; });
        if (it == values.end()) continue;
        t.family(row.name, row.type, row.help);
        t.sample(double(it->second) * row.scale);
    }
}

using PluginTimings =
    std::vector<std::pair<std::string, std::shared_ptr<const plugin::CallTimings>>>;

// Calls into each plugin, op by op: how many, their time, the longest.
void add_plugin_calls(OpenMetricsText &t, const PluginTimings &plugins) {
    std::vector<std::pair<std::string, std::map<std::string, plugin::OpTiming, std::less<>>>> all;
    for (const auto &[id, timings] : plugins) all.emplace_back(id, timings->snapshot());
    auto each = [&](auto value) {
        for (const auto &[id, ops] : all)
            for (const auto &[op, timing] : ops)
                t.sample({{"plugin", id}, {"op", op}}, value(timing));
    };
    t.family("slurm_plugin_calls", "counter", "Calls into a plugin's op");
    each([](const plugin::OpTiming &o) { return double(o.calls); });
    t.family("slurm_plugin_call_seconds", "counter", "Time the calls into a plugin's op took");
    each([](const plugin::OpTiming &o) { return double(o.usec_sum) / 1e6; });
    t.family("slurm_plugin_call_max_seconds", "gauge", "The longest call into a plugin's op");
    each([](const plugin::OpTiming &o) { return double(o.usec_max) / 1e6; });
}

} // namespace

bool metrics_enabled(const Config &conf) {
    auto type = conf.raw.find("metricstype");
    if (type == conf.raw.end() || type->second != "metrics/openmetrics") return false;
    auto params = conf.raw.find("metricsparameters");
    bool ignore_private =
        params != conf.raw.end() &&
        ascii_lower(params->second).find("ignore_private_data") != std::string::npos;
    return ignore_private || !conf.private_data.any();
}

net::HttpReply Metrics::http(const std::string &path) {
    static constexpr Endpoint kEndpoints[] = {
        {"/metrics/jobs", &Metrics::jobs_text},
        {"/metrics/jobs-users-accts", &Metrics::users_accts_text},
        {"/metrics/nodes", &Metrics::nodes_text},
        {"/metrics/partitions", &Metrics::partitions_text},
        {"/metrics/scheduler", &Metrics::scheduler_text},
        {"/metrics/controller", &Metrics::controller_text},
    };
    std::string p = path.size() > 1 && path.back() == '/' ? path.substr(0, path.size() - 1) : path;
    std::string list;
    for (const auto &e : kEndpoints) {
        if (p == e.path)
            return {200, std::string(OpenMetricsText::kContentType), (this->*e.text)()};
        list.append(e.path).append("\n");
    }
    return {p == "/metrics" ? 200 : 404, "text/plain; charset=utf-8", list};
}

std::string Metrics::jobs_text() {
    std::map<std::string, uint64_t> by_state{{"pending", 0}, {"running", 0}};
    uint64_t cpus = 0;
    jobs_.each([&](const Job &j) {
        ++by_state[ascii_lower(job_state_name(j.state & 0xff))];
        if (j.running()) cpus += j.alloc_cpus;
    });
    OpenMetricsText t;
    t.family("slurm_jobs", "gauge", "Jobs the controller holds, by state");
    for (const auto &[state, n] : by_state) t.sample({{"state", state}}, double(n));
    t.family("slurm_jobs_cpus_alloc", "gauge", "CPUs held by running and suspended jobs");
    t.sample(double(cpus));
    add_stats(t, stats_values(ctx_, jobs_, false), kJobStats);
    return t.finish();
}

std::string Metrics::users_accts_text() {
    std::map<std::string, JobCounts> users, accounts;
    jobs_.each([&](const Job &j) {
        users[j.user_name].add(j);
        accounts[j.account].add(j);
    });
    OpenMetricsText t;
    for (const auto &[label, by] : {std::pair{"user", &users}, std::pair{"account", &accounts}}) {
        const std::string name = std::string("slurm_") + label;
        t.family(name + "_jobs", "gauge", std::string("Jobs of the ") + label + ", by state");
        for (const auto &[who, c] : *by) {
            t.sample({{label, who}, {"state", "pending"}}, double(c.pending));
            t.sample({{label, who}, {"state", "running"}}, double(c.running));
        }
        t.family(name + "_cpus_alloc", "gauge",
                 std::string("CPUs held by the running jobs of the ") + label);
        for (const auto &[who, c] : *by) t.sample({{label, who}}, double(c.cpus_alloc));
    }
    return t.finish();
}

std::string Metrics::nodes_text() {
    std::map<std::string, uint64_t> by_state{
        {"idle", 0}, {"allocated", 0}, {"mixed", 0}, {"down", 0}};
    uint64_t drain = 0, not_responding = 0, cpus = 0, cpus_alloc = 0;
    for (uint32_t i = 0; i < nodes_.size(); ++i) {
        const Node &n = nodes_.at(i);
        ++by_state[node_state_label(n.state)];
        drain += (n.flags & DROVER_NODE_FLAG_DRAIN) != 0;
        not_responding += (n.flags & DROVER_NODE_FLAG_NOT_RESPONDING) != 0;
        cpus += nodes_.views()[i].cpus;
        cpus_alloc += n.alloc_cpus;
    }
    OpenMetricsText t;
    t.family("slurm_nodes", "gauge", "Nodes by base state");
    for (const auto &[state, n] : by_state) t.sample({{"state", state}}, double(n));
    t.family("slurm_nodes_drain", "gauge", "Nodes drained or draining");
    t.sample(double(drain));
    t.family("slurm_nodes_not_responding", "gauge", "Nodes that do not answer");
    t.sample(double(not_responding));
    t.family("slurm_cpus", "gauge", "CPUs of all nodes");
    t.sample(double(cpus));
    t.family("slurm_cpus_alloc", "gauge", "CPUs allocated to jobs");
    t.sample(double(cpus_alloc));
    auto per_node = [&](const char *name, const char *help, auto value) {
        t.family(name, "gauge", help);
        for (uint32_t i = 0; i < nodes_.size(); ++i)
            t.sample({{"node", nodes_.views()[i].name.ptr}}, double(value(i)));
    };
    per_node("slurm_node_cpus", "CPUs of the node",
             [&](uint32_t i) { return nodes_.views()[i].cpus; });
    per_node("slurm_node_cpus_alloc", "CPUs of the node allocated to jobs",
             [&](uint32_t i) { return nodes_.at(i).alloc_cpus; });
    per_node("slurm_node_memory_bytes", "Memory of the node (RealMemory)",
             [&](uint32_t i) { return double(nodes_.views()[i].real_memory_mb) * kMb; });
    per_node("slurm_node_memory_alloc_bytes", "Memory of the node allocated to jobs",
             [&](uint32_t i) { return double(nodes_.at(i).alloc_memory_mb) * kMb; });
    return t.finish();
}

std::string Metrics::partitions_text() {
    std::map<std::string, JobCounts> jobs;
    jobs_.each([&](const Job &j) { jobs[j.partition].add(j); });
    OpenMetricsText t;
    const auto &parts = nodes_.partitions();
    t.family("slurm_partition_nodes", "gauge", "Nodes of the partition");
    for (const auto &p : parts) t.sample({{"partition", p.conf->name}}, double(p.nodes.count()));
    t.family("slurm_partition_cpus", "gauge", "CPUs of the partition's nodes");
    for (const auto &p : parts) t.sample({{"partition", p.conf->name}}, double(p.total_cpus));
    t.family("slurm_partition_cpus_alloc", "gauge", "CPUs held by the partition's running jobs");
    for (const auto &p : parts)
        t.sample({{"partition", p.conf->name}}, double(jobs[p.conf->name].cpus_alloc));
    t.family("slurm_partition_jobs", "gauge", "Jobs of the partition, pending and running");
    for (const auto &p : parts) {
        const JobCounts &c = jobs[p.conf->name];
        t.sample({{"partition", p.conf->name}, {"state", "pending"}}, double(c.pending));
        t.sample({{"partition", p.conf->name}, {"state", "running"}}, double(c.running));
    }
    return t.finish();
}

std::string Metrics::scheduler_text() {
    OpenMetricsText t;
    add_stats(t, stats_values(ctx_, jobs_, false), kSchedulerStats);
    return t.finish();
}

std::string Metrics::controller_text() {
    OpenMetricsText t;
    const auto space = ctx_.store.space(false);
    t.family("slurm_state_store_bytes", "gauge", "Size of the controller's state store map");
    t.sample(double(space.map_bytes));
    t.family("slurm_state_store_free_bytes", "gauge", "What the state store map has left");
    t.sample(double(space.free_bytes));
    const Committer &c = ctx_.commit;
    t.family("slurm_state_commits", "counter", "Transactions committed to the state store");
    t.sample(double(c.commits()));
    t.family("slurm_state_commit_seconds", "counter", "Time the state store's commits took");
    t.sample(double(c.timing().sum_usec) / 1e6);
    t.family("slurm_state_commit_last_seconds", "gauge", "The last commit");
    t.sample(double(c.timing().last_usec) / 1e6);
    t.family("slurm_state_commit_max_seconds", "gauge", "The longest commit");
    t.sample(double(c.timing().max_usec) / 1e6);
    const auto standbys = repl_.standby_states();
    t.family("slurm_standby_behind", "gauge",
             "Transactions a standby controller does not hold yet");
    for (const auto &s : standbys)
        t.sample({{"standby", s.name}}, double(c.seq() > s.acked ? c.seq() - s.acked : 0));
    t.family("slurm_standby_attached", "gauge",
             "Whether changes wait for the standby (1) or it is detached (0)");
    for (const auto &s : standbys) t.sample({{"standby", s.name}}, s.attached ? 1 : 0);
    add_plugin_calls(t, ctx_.plugins.call_timings());
    return t.finish();
}

} // namespace drover::ctld
