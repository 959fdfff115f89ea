// blocked.hpp - where and when advance reservations bar one job (ABI 1.10's blocked windows),
// in the plan's buckets: per node, the stretches [from, to) the job may not hold it in. A window
// is widened to whole buckets, so the plan never puts a job on a node a moment too long.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include <drover/sched.h>

#include "timeline.hpp"

namespace drover::backfill {

class Blocked {
  public:
    struct Stretch {
        int32_t from, to; // to == kForever: for good
        int64_t real_end; // when it ends, in seconds since the epoch
    };

    // The job's windows from the core; empty when the core has none (or predates ABI 1.10).
    static Blocked load(const drover_sched_host *host, drover_sched_pass *pass, uint32_t job_id,
                        uint32_t node_count, const Timeline &tl);

    bool empty() const { return by_node_.empty(); }
    // Whether nothing bars the node over [from, to) (to may be kForever).
    bool clear(uint32_t node, int32_t from, int32_t to) const;
    // When the node is free of the stretches that end by bucket b (0: none does): a forecast
    // says the window's real end rather than the bucket boundary after it.
    int64_t free_since(uint32_t node, int32_t b) const;
    // Calls fn(lo, hi) for each range of start buckets within [lo, hi] at which a job lasting
    // len buckets (kForever: for ever) on node meets no stretch.
    template <class Fn>
    void for_each_allowed(uint32_t node, int32_t lo, int32_t hi, int32_t len, Fn &&fn) const {
        auto it = by_node_.find(node);
        if (it == by_node_.end()) return fn(lo, hi);
        for (const Stretch &s : it->second) { // sorted by from
            // Starts in (s.from - len, s.to) would overlap the stretch.
            const int64_t bad_lo = len == kForever ? INT32_MIN : int64_t{s.from} - len + 1;
            const int64_t bad_hi = s.to == kForever ? INT32_MAX : int64_t{s.to} - 1;
            if (bad_hi < lo || bad_lo > hi) continue;
            if (bad_lo > lo) fn(lo, static_cast<int32_t>(bad_lo - 1));
            if (bad_hi >= hi) return;
            lo = static_cast<int32_t>(bad_hi + 1);
        }
        fn(lo, hi);
    }

  private:
    std::unordered_map<uint32_t, std::vector<Stretch>> by_node_;
};

} // namespace drover::backfill
