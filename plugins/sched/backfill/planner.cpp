// planner.cpp - the backfill plan (see planner.hpp for the model).
#include "planner.hpp"

#include <algorithm>
#include <bit>

namespace drover::backfill {

namespace {

bool test_bit(const uint64_t *words, uint32_t i) {
    return (words[i / 64] >> (i % 64)) & 1u;
}
void set_bit(uint64_t *words, uint32_t i) {
    words[i / 64] |= uint64_t{1} << (i % 64);
}

// Calls fn(i) for every set bit i below nbits.
template <class Fn>
void for_each_bit(const uint64_t *words, uint32_t nbits, Fn &&fn) {
    const uint32_t nwords = (nbits + 63) / 64;
    for (uint32_t w = 0; w < nwords; ++w) {
        uint64_t bits = words[w];
        while (bits) {
            const uint32_t i = w * 64 + static_cast<uint32_t>(std::countr_zero(bits));
            bits &= bits - 1;
            if (i >= nbits) return;
            fn(i);
        }
    }
}

// The bucket a job that starts at b and lasts len buckets ends at (kForever if it never does).
int32_t end_bucket(int32_t b, int32_t len) {
    if (len == kForever) return kForever;
    const int64_t e = int64_t{b} + len;
    return e >= kForever ? kForever : static_cast<int32_t>(e);
}

} // namespace

Planner::Planner(const drover_sched_host *host, drover_sched_pass *pass, const Params &params,
                 bool whole_nodes)
    : host_(host), pass_(pass), params_(params), whole_nodes_(whole_nodes) {}

void Planner::build() {
    node_count_ = host_->node_count(pass_);
    std::vector<uint32_t> cpus(node_count_, 0);
    weight_.assign(node_count_, 0);
    largest_node_ = 0;
    for (uint32_t i = 0; i < node_count_; ++i) {
        if (const drover_node_view *v = host_->node(pass_, i)) {
            cpus[i] = v->cpus;
            weight_[i] = v->weight;
            largest_node_ = std::max(largest_node_, v->cpus);
        }
    }
    const int64_t now = host_->now(pass_);
    tl_.reset(cpus, now, params_.resolution_s);
    running_free_.assign(cpus.begin(), cpus.end());
    window_ = static_cast<int32_t>((int64_t{params_.window_min} * 60 + params_.resolution_s - 1) /
                                   params_.resolution_s);
    const std::size_t words = std::max<std::size_t>(1, (node_count_ + 63) / 64);
    now_ok_.assign(words, 0);
    empty_.assign(words, 0);
    scratch_.assign(words, 0);
    job_cpus_.assign(node_count_, 0);

    const uint32_t running = host_->running_count(pass_);
    for (uint32_t r = 0; r < running; ++r) {
        const drover_job_view *job = host_->running_job(pass_, r);
        if (!job) continue;
        drover_bitmap held{scratch_.data(), node_count_};
        const int rc = host_->job_nodes(pass_, job->job_id, &held, job_cpus_.data());
        const int32_t release = tl_.release_bucket(job->end_time);
        for_each_bit(scratch_.data(), node_count_, [&](uint32_t i) {
            const uint32_t c = job_cpus_[i] ? job_cpus_[i] : cpus[i];
            job_cpus_[i] = 0;
            if (rc != DROVER_OK) return;
            tl_.use(i, 0, release, c, job->end_time);
            running_free_[i] -= static_cast<int32_t>(c);
        });
        std::fill(scratch_.begin(), scratch_.end(), 0);
    }
}

const Planner::Words &Planner::usable(const drover_job_view &job) {
    const bool cacheable = job.excluded_nodes.words == nullptr;
    std::string key;
    if (cacheable) {
        key.assign(job.partition.ptr ? job.partition.ptr : "", job.partition.len);
        key.push_back('\0');
        key.append(job.reservation.ptr ? job.reservation.ptr : "", job.reservation.len);
        if (auto it = usable_cache_.find(key); it != usable_cache_.end()) return it->second;
    }
    Words w(std::max<std::size_t>(1, (node_count_ + 63) / 64), 0);
    drover_bitmap out{w.data(), node_count_};
    if (host_->usable_nodes(pass_, job.job_id, &out) != DROVER_OK) std::fill(w.begin(), w.end(), 0);
    if (cacheable) return usable_cache_.emplace(std::move(key), std::move(w)).first->second;
    job_usable_ = std::move(w);
    return job_usable_;
}

const Blocked &Planner::blocked(const drover_job_view &job) {
    // A magnetic reservation takes in the jobs it admits: who asks matters, not only what.
    std::string key(job.reservation.ptr ? job.reservation.ptr : "", job.reservation.len);
    key += '\0' + std::to_string(job.user_id) + '\0';
    key.append(job.account.ptr ? job.account.ptr : "", job.account.len);
    auto it = blocked_cache_.find(key);
    if (it == blocked_cache_.end())
        it = blocked_cache_
                 .emplace(std::move(key), Blocked::load(host_, pass_, job.job_id, node_count_, tl_))
                 .first;
    return it->second;
}

int32_t Planner::earliest(const drover_job_view &job, const Demand &d, int32_t len,
                          const Words &nodes, int32_t from) {
    const int32_t last = window_;
    if (from > last) return kNone;
    count_.assign(static_cast<std::size_t>(last) + 2, 0);
    cpus_.assign(static_cast<std::size_t>(last) + 2, 0);
    const uint64_t *req = job.required_nodes.words;
    const uint32_t req_bits = std::min(job.required_nodes.nbits, node_count_);
    uint32_t req_total = 0;
    if (req) {
        required_.assign(static_cast<std::size_t>(last) + 2, 0);
        for_each_bit(req, req_bits, [&](uint32_t) { ++req_total; });
    }
    if (from == 0) std::fill(now_ok_.begin(), now_ok_.end(), 0);

    for_each_bit(nodes.data(), node_count_, [&](uint32_t i) {
        const uint32_t cap = tl_.cpus(i);
        const uint32_t need = need_on(d, cap);
        if (cap == 0 || need > cap) return;
        const bool required = req && i < req_bits && test_bit(req, i);
        const int32_t need_free = static_cast<int32_t>(need);
        // Now, a node may only be offered if no reservation touches the CPUs the job could
        // take there while it runs (whole nodes: the node stays wholly free).
        bool now_ok = false;
        if (from == 0 && blocked_->clear(i, 0, len)) {
            const int32_t least = tl_.min_free(i, 0, len);
            const int32_t take = d.whole ? static_cast<int32_t>(cap)
                                         : std::min<int32_t>(running_free_[i],
                                                             static_cast<int32_t>(d.most_per_node));
            now_ok = least >= need_free && least >= take;
            if (now_ok) set_bit(now_ok_.data(), i);
        }
        tl_.for_each_run(i, need_free, from, [&](const Run &r) {
            int32_t lo = std::max(r.from, from);
            if (lo == 0 && !now_ok) lo = 1;
            int64_t hi;
            if (r.to == kForever)
                hi = last;
            else if (len == kForever)
                return; // an unlimited job needs a run that never ends
            else
                hi = std::min<int64_t>(int64_t{r.to} - len, last);
            if (lo > hi) return;
            blocked_->for_each_allowed(i, lo, int32_t(hi), len, [&](int32_t a, int32_t z) {
                if (a > z) return;
                ++count_[a];
                --count_[z + 1];
                cpus_[a] += cap;
                cpus_[z + 1] -= cap;
                if (required) {
                    ++required_[a];
                    --required_[z + 1];
                }
            });
        });
    });

    int64_t count = 0, cpus = 0, required = 0;
    for (int32_t b = from; b <= last; ++b) {
        count += count_[b];
        cpus += cpus_[b];
        if (req) required += required_[b];
        if (count >= d.nodes && (!d.whole || cpus >= static_cast<int64_t>(d.total_cpus)) &&
            required >= req_total)
            return b;
    }
    return kNone;
}

Planner::Words Planner::choose(const drover_job_view &job, const Demand &d, int32_t len,
                               const Words &nodes, int32_t b, int64_t *real_start) {
    struct Candidate {
        uint32_t node;
        bool required;
        bool idle; // nothing runs there now
        int64_t real;
    };
    std::vector<Candidate> cands;
    const uint64_t *req = job.required_nodes.words;
    const uint32_t req_bits = std::min(job.required_nodes.nbits, node_count_);
    const int32_t end = end_bucket(b, len);
    for_each_bit(nodes.data(), node_count_, [&](uint32_t i) {
        const uint32_t cap = tl_.cpus(i);
        const uint32_t need = need_on(d, cap);
        if (cap == 0 || need > cap) return;
        bool fits = false;
        int64_t real = 0;
        tl_.for_each_run(i, static_cast<int32_t>(need), b, [&](const Run &r) {
            if (!fits && r.from <= b && r.to >= end) {
                fits = true;
                real = r.real;
            }
        });
        if (fits && blocked_->clear(i, b, end))
            cands.push_back({i, req && i < req_bits && test_bit(req, i),
                             running_free_[i] >= static_cast<int32_t>(cap),
                             std::max(real, blocked_->free_since(i, b))});
    });
    auto before = [&](const Candidate &x, const Candidate &y) {
        if (x.required != y.required) return x.required;
        if (params_.busy_nodes && x.idle != y.idle)
            return !x.idle; // bf_busy_nodes: nodes in use first
        if (weight_[x.node] != weight_[y.node]) return weight_[x.node] < weight_[y.node];
        return x.node < y.node;
    };
    if (!std::is_sorted(cands.begin(), cands.end(), before))
        std::sort(cands.begin(), cands.end(), before);

    Words picked(std::max<std::size_t>(1, (node_count_ + 63) / 64), 0);
    uint32_t count = 0;
    uint64_t cpus = 0;
    int64_t real = tl_.now();
    for (const Candidate &c : cands) {
        const bool enough = count >= d.nodes && (!d.whole || cpus >= d.total_cpus);
        if (enough && !c.required) break;
        set_bit(picked.data(), c.node);
        ++count;
        cpus += tl_.cpus(c.node);
        real = std::max(real, c.real);
    }
    *real_start = real;
    return picked;
}

void Planner::reserve(const Demand &d, int32_t b, int32_t len, const Words &nodes) {
    const int32_t end = end_bucket(b, len);
    for_each_bit(nodes.data(), node_count_, [&](uint32_t i) {
        tl_.use(i, b, end, need_on(d, tl_.cpus(i)), tl_.real_time(end));
    });
}

void Planner::record_start(const drover_job_view &job, int32_t len) {
    std::fill(scratch_.begin(), scratch_.end(), 0);
    drover_bitmap held{scratch_.data(), node_count_};
    // An array's record starts tasks that are jobs of their own: what they took is not known
    // here, and the select plugin will refuse those nodes to later jobs of this plan anyway.
    const int rc = host_->job_nodes(pass_, job.job_id, &held, job_cpus_.data());
    const int64_t end =
        job.time_limit_min == DROVER_INFINITE ? 0 : tl_.now() + int64_t{job.time_limit_min} * 60;
    for_each_bit(scratch_.data(), node_count_, [&](uint32_t i) {
        const uint32_t c = job_cpus_[i] ? job_cpus_[i] : tl_.cpus(i);
        job_cpus_[i] = 0;
        if (rc != DROVER_OK) return;
        tl_.use(i, 0, len, c, end);
        running_free_[i] -= static_cast<int32_t>(c);
    });
    std::fill(scratch_.begin(), scratch_.end(), 0);
}

PlanStats Planner::run(const std::vector<const drover_job_view *> &order,
                       const std::unordered_map<uint32_t, int> &known) {
    PlanStats st;
    for (const drover_job_view *job : order) {
        if (st.examined < params_.max_job_test) ++st.looked;
        bool eligible = false;
        if (auto it = known.find(job->job_id); it != known.end()) {
            if (it->second != DROVER_EBUSY)
                continue; // started, or not eligible, in the strict part
            eligible = true;
        }
        if (st.examined >= params_.max_job_test) {
            st.hit_max_job_test = true;
            break;
        }
        ++st.examined;
        const Words &nodes = usable(*job);
        blocked_ = &blocked(*job);
        const Demand d = demand_of(*job, whole_nodes_, largest_node_);
        const int32_t len = tl_.length_buckets(job->time_limit_min);
        int32_t from = 0;
        int32_t b = earliest(*job, d, len, nodes, from);
        if (b == 0) {
            const int rc = host_->try_start_on(pass_, job->job_id, {now_ok_.data(), node_count_});
            if (rc == DROVER_OK) {
                record_start(*job, len);
                ++st.started;
                continue;
            }
            if (rc != DROVER_EBUSY) {
                ++st.ineligible;
                continue;
            }
            eligible = true; // it fits the plan but not the select plugin: plan it later
            from = 1;
            b = earliest(*job, d, len, nodes, from);
        }
        if (b == kNone) {
            host_->set_expected_start(pass_, job->job_id, 0, {nullptr, 0});
            ++st.unplanned;
            continue;
        }
        if (!eligible) {
            // No node allowed: the core answers EPERM for a job that may not start at all and
            // EBUSY for one that only lacks resources.
            const int rc = host_->try_start_on(pass_, job->job_id, {empty_.data(), node_count_});
            if (rc == DROVER_OK) {
                record_start(*job, len);
                ++st.started;
                continue;
            }
            if (rc != DROVER_EBUSY) {
                ++st.ineligible;
                continue;
            }
        }
        int64_t when = 0;
        const Words picked = choose(*job, d, len, nodes, b, &when);
        when = std::max(when, tl_.real_time(from));
        reserve(d, b, len, picked);
        host_->set_expected_start(pass_, job->job_id, when, {picked.data(), node_count_});
        ++st.reserved;
    }
    return st;
}

} // namespace drover::backfill
