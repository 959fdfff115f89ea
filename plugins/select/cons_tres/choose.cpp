// choose.cpp - node set selection (see choose.hpp for the policy).
#include "choose.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace cons_tres {

namespace {

constexpr uint32_t kNone = 0xffffffffu;
constexpr uint64_t kExtraTries = 16;

// Best-fit order: weight, then fewest free CPUs, then index.
bool best_fit_less(const Cand &a, const Cand &b) {
    if (a.weight != b.weight) return a.weight < b.weight;
    if (a.free_cpus != b.free_cpus) return a.free_cpus < b.free_cpus;
    return a.node < b.node;
}

uint64_t sat_sub(uint64_t a, uint64_t b) {
    return a > b ? a - b : 0;
}

// The sum of the k largest values of key over rest, without position skip (kNone: none).
struct TopSums {
    std::vector<uint32_t> order; // positions into rest, by key descending
    std::vector<uint64_t> prefix;
    std::vector<uint32_t> rank; // position -> place in order
    template <class Key>
    TopSums(const std::vector<Cand> &rest, Key key) {
        order.resize(rest.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return key(rest[a]) > key(rest[b]); });
        prefix.assign(rest.size() + 1, 0);
        rank.assign(rest.size(), 0);
        for (size_t i = 0; i < order.size(); ++i) {
            prefix[i + 1] = prefix[i] + key(rest[order[i]]);
            rank[order[i]] = static_cast<uint32_t>(i);
        }
    }
    uint64_t top(size_t k, uint32_t skip, uint64_t skip_value) const {
        const size_t n = order.size();
        if (skip == kNone) return prefix[std::min(k, n)];
        if (rank[skip] < k) return prefix[std::min(k + 1, n)] - skip_value;
        return prefix[std::min(k, n)];
    }
    // Fewest of the largest values that reach need; kNone if all of them do not.
    uint32_t fewest(uint64_t need) const {
        for (size_t k = 0; k < prefix.size(); ++k)
            if (prefix[k] >= need) return static_cast<uint32_t>(k);
        return kNone;
    }
};

struct Totals {
    uint64_t tasks = 0, gpus = 0;
    std::vector<uint32_t> counted; // per term, how many chosen nodes have it
};

void add(Totals &t, const Cand &c) {
    t.tasks += c.cap;
    t.gpus += c.gpus;
    for (size_t i = 0; i < t.counted.size(); ++i)
        if (c.counted & (1u << i)) ++t.counted[i];
}

// Picks exactly k more nodes from rest, best fit first while the need stays reachable.
bool fill(std::vector<Cand> rest, uint64_t need_tasks, uint64_t need_gpus, uint32_t k,
          std::vector<uint32_t> &out) {
    std::sort(rest.begin(), rest.end(), best_fit_less);
    for (uint32_t slots = k; slots > 0; --slots) {
        TopSums caps(rest, [](const Cand &c) -> uint64_t { return c.cap; });
        TopSums gpus(rest, [](const Cand &c) -> uint64_t { return c.gpus; });
        uint32_t pick = kNone;
        for (uint32_t i = 0; i < rest.size() && pick == kNone; ++i) {
            const Cand &c = rest[i];
            if (caps.top(slots - 1, i, c.cap) >= sat_sub(need_tasks, c.cap) &&
                gpus.top(slots - 1, i, c.gpus) >= sat_sub(need_gpus, c.gpus))
                pick = i;
        }
        if (pick == kNone) return false;
        need_tasks = sat_sub(need_tasks, rest[pick].cap);
        need_gpus = sat_sub(need_gpus, rest[pick].gpus);
        out.push_back(rest[pick].node);
        rest.erase(rest.begin() + pick);
    }
    return need_tasks == 0 && need_gpus == 0;
}

bool choose_greedy(const std::vector<Cand> &pool, const std::vector<uint32_t> &required,
                   const Need &need, std::vector<uint32_t> &nodes) {
    std::vector<uint32_t> chosen;
    std::vector<Cand> rest;
    Totals t;
    t.counted.assign(need.counts.size(), 0);
    for (const Cand &c : pool) {
        if (std::binary_search(required.begin(), required.end(), c.node)) {
            chosen.push_back(c.node);
            add(t, c);
        } else {
            rest.push_back(c);
        }
    }
    if (chosen.size() != required.size()) return false;
    // a*N terms: the best-fitting nodes with a, until N of the set have it.
    for (size_t term = 0; term < need.counts.size(); ++term) {
        std::vector<Cand> with;
        for (const Cand &c : rest)
            if (c.counted & (1u << term)) with.push_back(c);
        std::sort(with.begin(), with.end(), best_fit_less);
        for (const Cand &c : with) {
            if (t.counted[term] >= need.counts[term]) break;
            chosen.push_back(c.node);
            add(t, c);
            rest.erase(std::find_if(rest.begin(), rest.end(),
                                    [&](const Cand &r) { return r.node == c.node; }));
        }
        if (t.counted[term] < need.counts[term]) return false;
    }
    if (chosen.size() > need.max_nodes) return false;
    const uint64_t need_tasks = sat_sub(need.tasks, t.tasks);
    const uint64_t need_gpus = sat_sub(need.gpus, t.gpus);
    const uint32_t need_nodes =
        need.min_nodes > chosen.size() ? need.min_nodes - static_cast<uint32_t>(chosen.size()) : 0;
    const uint32_t k_tasks =
        TopSums(rest, [](const Cand &c) -> uint64_t { return c.cap; }).fewest(need_tasks);
    const uint32_t k_gpus =
        TopSums(rest, [](const Cand &c) -> uint64_t { return c.gpus; }).fewest(need_gpus);
    if (k_tasks == kNone || k_gpus == kNone) return false;
    const uint64_t room = std::min<uint64_t>(need.max_nodes - chosen.size(), rest.size());
    // More nodes than the fewest are tried only when tasks and --gpus pull apart; a few
    // more is enough in practice and keeps a refusal cheap on a large cluster.
    const uint64_t k0 = std::max({k_tasks, k_gpus, need_nodes});
    for (uint64_t k = k0; k <= room && k <= k0 + kExtraTries; ++k) {
        std::vector<uint32_t> more;
        if (fill(rest, need_tasks, need_gpus, static_cast<uint32_t>(k), more)) {
            chosen.insert(chosen.end(), more.begin(), more.end());
            std::sort(chosen.begin(), chosen.end());
            nodes = std::move(chosen);
            return true;
        }
    }
    return false;
}

bool choose_window(const std::vector<Cand> &pool, const std::vector<uint32_t> &required,
                   const Need &need, std::vector<uint32_t> &nodes) {
    const uint32_t req_lo = required.empty() ? kNone : required.front();
    const uint32_t req_hi = required.empty() ? 0 : required.back();
    struct Best {
        uint32_t weight = kNone, len = kNone, start = kNone;
    } best;
    for (size_t s = 0; s < pool.size(); ++s) {
        if (pool[s].node > req_lo) break; // the window would miss a required node
        Totals t;
        t.counted.assign(need.counts.size(), 0);
        uint32_t weight = 0;
        for (size_t e = s; e < pool.size(); ++e) {
            if (e > s && pool[e].node != pool[e - 1].node + 1) break;
            const uint32_t len = static_cast<uint32_t>(e - s + 1);
            if (len > need.max_nodes) break;
            add(t, pool[e]);
            weight = std::max(weight, pool[e].weight);
            bool counted_ok = true;
            for (size_t i = 0; i < need.counts.size(); ++i)
                counted_ok = counted_ok && t.counted[i] >= need.counts[i];
            if (len >= need.min_nodes && t.tasks >= need.tasks && t.gpus >= need.gpus &&
                counted_ok && (required.empty() || pool[e].node >= req_hi)) {
                if (std::tie(weight, len, pool[s].node) <
                    std::tie(best.weight, best.len, best.start))
                    best = Best{weight, len, pool[s].node};
                break;
            }
        }
    }
    if (best.start == kNone) return false;
    nodes.clear();
    for (uint32_t i = 0; i < best.len; ++i) nodes.push_back(best.start + i);
    return true;
}

} // namespace

bool choose_nodes(const std::vector<Cand> &cands, const std::vector<uint32_t> &required,
                  const Need &need, std::vector<uint32_t> &nodes) {
    if (need.min_nodes > need.max_nodes || required.size() > need.max_nodes ||
        need.counts.size() > 32)
        return false;
    std::vector<uint32_t> req(required);
    std::sort(req.begin(), req.end());
    req.erase(std::unique(req.begin(), req.end()), req.end());
    std::vector<uint32_t> weights;
    for (const Cand &c : cands) weights.push_back(c.weight);
    std::sort(weights.begin(), weights.end());
    weights.erase(std::unique(weights.begin(), weights.end()), weights.end());
    for (uint32_t w : weights) {
        std::vector<Cand> pool;
        std::vector<uint32_t> with_lighter(req);
        for (const Cand &c : cands) {
            if (c.weight <= w || std::binary_search(req.begin(), req.end(), c.node))
                pool.push_back(c);
            if (c.weight < w) with_lighter.push_back(c.node);
        }
        if (need.contiguous) {
            if (choose_window(pool, req, need, nodes)) return true;
            continue;
        }
        // The lighter nodes could not hold the job by themselves: use them all, and of this
        // weight only what they lack. Failing that (too many nodes), any mix of the pool.
        std::sort(with_lighter.begin(), with_lighter.end());
        with_lighter.erase(std::unique(with_lighter.begin(), with_lighter.end()),
                           with_lighter.end());
        if (with_lighter.size() > req.size() && with_lighter.size() <= need.max_nodes &&
            choose_greedy(pool, with_lighter, need, nodes))
            return true;
        if (choose_greedy(pool, req, need, nodes)) return true;
    }
    return false;
}

} // namespace cons_tres
