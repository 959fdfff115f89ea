// linear.cpp - select/linear: allocates whole nodes, lowest weight first.
//
// A job gets whole nodes: at least max(min_nodes, 1), at most max_nodes, and enough CPUs in all
// for num_tasks * cpus_per_task; every node must have mem_per_node_mb of memory. Candidates are
// taken in (weight, node index) order and the choice stops as soon as both the node count and the
// CPU need are met, so a job with no min_nodes gets as few nodes as cover its CPUs. If that greedy
// choice would exceed max_nodes, the chosen nodes with the fewest CPUs are swapped for larger
// unchosen ones until the need is met or no swap helps.
//
// The plugin remembers which job holds which nodes (job_begin / job_fini); in RUN_NOW mode a node
// held by any job is not a candidate. Whether a job that cannot start now could ever start is
// answered by the same choice with holdings ignored (EBUSY if yes, ENOSPC if not).
#include <algorithm>
#include <cstring>
#include <map>
#include <new>
#include <set>
#include <string>
#include <vector>

#include <drover/plugin.hpp>
#include <drover/select.h>

namespace {

using drover::sdk::guard;
using drover::sdk::guard_or;
using drover::sdk::set_errorf;

// What the plugin keeps of one node.
struct Node {
    uint32_t cpus = 0;
    uint64_t real_memory_mb = 0;
    uint32_t weight = 0;
};

// What a job asks for, with defaults applied.
struct Request {
    uint32_t min_nodes;             // at least 1
    uint32_t max_nodes;             // DROVER_INFINITE when unbounded
    uint64_t cpus;                  // num_tasks * cpus_per_task
    uint64_t mem_mb;                // per node; 0 = any
    std::vector<uint32_t> required; // -w: nodes the job must have (ABI 1.1)
};

struct State {
    drover::sdk::Host host;
    std::vector<Node> nodes;
    std::vector<uint32_t> holders;                  // per node: how many jobs hold it
    std::map<uint32_t, std::vector<uint32_t>> jobs; // job id -> node indexes it holds
    std::set<uint32_t> suspended; // jobs whose nodes are given back while they are suspended
};

bool test_bit(const uint64_t *words, uint32_t i) {
    return (words[i / 64] >> (i % 64)) & 1u;
}
void set_bit(uint64_t *words, uint32_t i) {
    words[i / 64] |= uint64_t{1} << (i % 64);
}

// "Not set" counts (0 and NO_VAL) mean 1; a bound of 0, NO_VAL or INFINITE means no bound.
uint32_t count_or_one(uint32_t v) {
    return v == 0 || v == DROVER_NO_VAL ? 1 : v;
}

Request request_of(const drover_job_view *job) {
    Request r;
    r.min_nodes = count_or_one(job->min_nodes);
    r.max_nodes =
        job->max_nodes == 0 || job->max_nodes == DROVER_NO_VAL ? DROVER_INFINITE : job->max_nodes;
    r.cpus = uint64_t{count_or_one(job->num_tasks)} * count_or_one(job->cpus_per_task);
    r.mem_mb = job->mem_per_node_mb == DROVER_NO_VAL ? 0 : job->mem_per_node_mb;
    if (DROVER_HAS(drover_job_view, job, required_nodes) && job->required_nodes.words)
        for (uint32_t i = 0; i < job->required_nodes.nbits; ++i)
            if (test_bit(job->required_nodes.words, i)) r.required.push_back(i);
    return r;
}

// Usable nodes with enough memory (and, unless ignore_holdings, held by no job), in the order
// they should be chosen: lowest weight first, then node index.
std::vector<uint32_t> candidates(const State &s, const Request &req, drover_bitmap_view usable,
                                 bool ignore_holdings) {
    std::vector<uint32_t> out;
    const uint32_t n = std::min<uint32_t>(usable.nbits, static_cast<uint32_t>(s.nodes.size()));
    for (uint32_t i = 0; i < n; ++i) {
        if (!test_bit(usable.words, i) || s.nodes[i].real_memory_mb < req.mem_mb) continue;
        if (!ignore_holdings && s.holders[i] > 0) continue;
        out.push_back(i);
    }
    // Nodes the job named come first (all of them or none will do), then lowest weight.
    auto named = [&](uint32_t i) {
        return std::find(req.required.begin(), req.required.end(), i) != req.required.end();
    };
    std::stable_sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) {
        if (named(a) != named(b)) return named(a);
        return s.nodes[a].weight < s.nodes[b].weight;
    });
    return out;
}

// When the greedy choice needs more than max_nodes: keep max_nodes nodes and swap the smallest
// chosen for the largest unchosen while that adds CPUs. Returns false if the need is still unmet.
bool fit_within_max(const State &s, const Request &req, const std::vector<uint32_t> &order,
                    std::vector<uint32_t> &chosen) {
    chosen.assign(order.begin(), order.begin() + req.max_nodes);
    std::vector<uint32_t> rest(order.begin() + req.max_nodes, order.end());
    uint64_t cpus = 0;
    for (uint32_t i : chosen) cpus += s.nodes[i].cpus;
    while (cpus < req.cpus && !rest.empty()) {
        auto small = std::min_element(chosen.begin(), chosen.end(), [&](uint32_t a, uint32_t b) {
            return s.nodes[a].cpus < s.nodes[b].cpus;
        });
        auto large = std::max_element(rest.begin(), rest.end(), [&](uint32_t a, uint32_t b) {
            return s.nodes[a].cpus < s.nodes[b].cpus;
        });
        if (s.nodes[*large].cpus <= s.nodes[*small].cpus) return false;
        cpus += s.nodes[*large].cpus - s.nodes[*small].cpus;
        std::swap(*small, *large);
    }
    return cpus >= req.cpus;
}

// The nodes for req among the candidates, or false if they cannot satisfy it.
bool choose(const State &s, const Request &req, const std::vector<uint32_t> &order,
            std::vector<uint32_t> &chosen) {
    if (req.min_nodes > req.max_nodes || order.size() < req.min_nodes) return false;
    for (uint32_t r : req.required) // every named node must be a candidate
        if (std::find(order.begin(), order.end(), r) == order.end()) return false;
    const std::size_t at_least = std::max<std::size_t>(req.min_nodes, req.required.size());
    chosen.clear();
    uint64_t cpus = 0;
    for (uint32_t i : order) {
        if (chosen.size() >= at_least && cpus >= req.cpus) break;
        chosen.push_back(i);
        cpus += s.nodes[i].cpus;
    }
    if (chosen.size() < req.min_nodes || cpus < req.cpus) return false;
    if (chosen.size() <= req.max_nodes) return true;
    return fit_within_max(s, req, order, chosen);
}

int linear_node_init(void *state, const drover_node_view *nodes, uint32_t count,
                     drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        s.nodes.assign(count, Node{});
        for (uint32_t i = 0; i < count; ++i)
            s.nodes[i] = Node{nodes[i].cpus, nodes[i].real_memory_mb, nodes[i].weight};
        // The core replays job_begin for every running job after this.
        s.holders.assign(count, 0);
        s.jobs.clear();
        s.suspended.clear();
        s.host.debug("node table: " + std::to_string(count) + " nodes");
        return DROVER_OK;
    });
}

int linear_job_test(void *state, const drover_job_view *job, drover_bitmap_view usable, int mode,
                    drover_bitmap *picked, drover_error *err) {
    return guard(err, [&] {
        const auto &s = *static_cast<State *>(state);
        const Request req = request_of(job);
        std::vector<uint32_t> chosen;
        const bool ignore_holdings = mode == DROVER_SELECT_TEST_ONLY;
        if (!choose(s, req, candidates(s, req, usable, ignore_holdings), chosen)) {
            if (!ignore_holdings && choose(s, req, candidates(s, req, usable, true), chosen))
                return DROVER_EBUSY;
            set_errorf(err,
                       "job %u needs %u or more node(s) with %llu CPU(s) in all and %llu MB "
                       "each: more than the usable nodes offer",
                       job->job_id, req.min_nodes, static_cast<unsigned long long>(req.cpus),
                       static_cast<unsigned long long>(req.mem_mb));
            return DROVER_ENOSPC;
        }
        for (uint32_t i : chosen)
            if (i < picked->nbits) set_bit(picked->words, i);
        return DROVER_OK;
    });
}

void hold_nodes(State &s, const std::vector<uint32_t> &held, bool take) {
    for (uint32_t i : held)
        if (i < s.holders.size() && (take || s.holders[i] > 0))
            take ? ++s.holders[i] : --s.holders[i];
}

// Forgets what job_begin recorded for job_id (nothing if it holds nothing).
void release(State &s, uint32_t job_id) {
    auto it = s.jobs.find(job_id);
    if (it == s.jobs.end()) return;
    if (!s.suspended.erase(job_id)) hold_nodes(s, it->second, false);
    s.jobs.erase(it);
}

// scontrol suspend / resume: a suspended job's nodes are free for others (whole nodes here, as
// select/linear allocates them); on resume it holds them again, shared with whoever got them.
int suspend_or_resume(void *state, const drover_job_view *job, bool suspend, drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        auto it = s.jobs.find(job->job_id);
        if (it == s.jobs.end() || s.suspended.count(job->job_id) == size_t(suspend))
            return DROVER_OK;
        if (suspend)
            s.suspended.insert(job->job_id);
        else
            s.suspended.erase(job->job_id);
        hold_nodes(s, it->second, !suspend);
        return DROVER_OK;
    });
}

int linear_job_suspend(void *state, const drover_job_view *job, drover_error *err) {
    return suspend_or_resume(state, job, true, err);
}

int linear_job_resume(void *state, const drover_job_view *job, drover_error *err) {
    return suspend_or_resume(state, job, false, err);
}

int linear_job_fini(void *state, const drover_job_view *job, drover_error *err) {
    return guard(err, [&] { release(*static_cast<State *>(state), job->job_id); });
}

int linear_job_begin(void *state, const drover_job_view *job, drover_bitmap_view nodes,
                     drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        release(s, job->job_id); // a repeated begin replaces the earlier one
        std::vector<uint32_t> held;
        const uint32_t n = std::min<uint32_t>(nodes.nbits, static_cast<uint32_t>(s.nodes.size()));
        for (uint32_t i = 0; i < n; ++i) {
            if (!test_bit(nodes.words, i)) continue;
            if (s.holders[i] > 0)
                s.host.warn("job " + std::to_string(job->job_id) + " shares node index " +
                            std::to_string(i) + " with another job");
            ++s.holders[i];
            held.push_back(i);
        }
        s.jobs[job->job_id] = std::move(held);
        return DROVER_OK;
    });
}

uint32_t linear_job_cpus_on_node(void *state, uint32_t job_id, uint32_t node) {
    return guard_or<uint32_t>(0, [&]() -> uint32_t {
        const auto &s = *static_cast<State *>(state);
        auto it = s.jobs.find(job_id);
        if (it == s.jobs.end() || node >= s.nodes.size()) return 0;
        const auto &held = it->second;
        return std::find(held.begin(), held.end(), node) != held.end() ? s.nodes[node].cpus : 0;
    });
}

int linear_init(drover_ctx *ctx, const drover_host_api *host, void **state_out, drover_error *err) {
    return guard(err, [&] {
        auto *s = new State;
        s->host = drover::sdk::Host(ctx, host);
        *state_out = s;
        return DROVER_OK;
    });
}

void linear_fini(void *state) {
    delete static_cast<State *>(state);
}

const drover_select_ops linear_ops = {
    .struct_size = sizeof(drover_select_ops),
    .node_init = linear_node_init,
    .job_test = linear_job_test,
    .job_begin = linear_job_begin,
    .job_fini = linear_job_fini,
    .job_cpus_on_node = linear_job_cpus_on_node,
    .job_alloc_detail = nullptr,
    .job_suspend = linear_job_suspend,
    .job_resume = linear_job_resume,
};

} // namespace

DROVER_PLUGIN("select", "linear", "0.1.0", linear_init, linear_fini, &linear_ops)
