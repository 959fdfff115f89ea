// timeline.hpp - free CPUs of every node over the plan's future, in steps of bf_resolution.
//
// Time is counted in buckets: bucket b is [now + b*res, now + (b+1)*res). A running job's end is
// rounded up to the next bucket boundary and a pending job's time limit up to whole buckets, so
// the plan never assumes a node frees earlier than it will. kForever stands for "never ends" (a
// job without a time limit). Besides the bucket, each step keeps the real time, in seconds, at
// which its level is reached (a running job's own end time), so a forecast shown to users says
// when a job is expected to start rather than the bucket boundary after it.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace drover::backfill {

inline constexpr int32_t kForever = std::numeric_limits<int32_t>::max();

// From bucket `at` until the next step, `free` CPUs are free (negative when overcommitted); that
// level is reached at `real` seconds since the epoch.
struct Step {
    int32_t at;
    int32_t free;
    int64_t real;
};

// A stretch of buckets [from, to) in which a node keeps at least some number of CPUs free, and
// the real time at which it begins.
struct Run {
    int32_t from, to; // to == kForever: it never ends
    int64_t real;
};

class Timeline {
  public:
    // Every node fully free from now on; `now` is bucket 0, res the bucket length in seconds.
    void reset(const std::vector<uint32_t> &cpus, int64_t now, uint32_t res);

    std::size_t size() const { return nodes_.size(); }
    // Steps over all nodes: how big the map of free CPUs over time is.
    std::size_t step_count() const {
        std::size_t n = 0;
        for (const auto &steps : nodes_) n += steps.size();
        return n;
    }
    uint32_t cpus(uint32_t node) const { return cpus_[node]; }
    const std::vector<Step> &steps(uint32_t node) const { return nodes_[node]; }
    int64_t now() const { return now_; }
    uint32_t resolution() const { return res_; }

    // The bucket at which something ending at real time `end` (seconds; 0 = never) has ended:
    // at least 1 (a job past its end still holds its node until it is gone), kForever for 0.
    int32_t release_bucket(int64_t end) const;
    // The number of buckets a time limit in minutes covers (at least 1); kForever if unlimited.
    int32_t length_buckets(uint32_t limit_min) const;
    // The real time of a bucket boundary.
    int64_t real_time(int32_t bucket) const;

    // Takes cpus on node over [from, to); the level after `to` is reached at real time real_to.
    void use(uint32_t node, int32_t from, int32_t to, uint32_t cpus, int64_t real_to);

    // The fewest CPUs free on node over [from, to) (to may be kForever).
    int32_t min_free(uint32_t node, int32_t from, int32_t to) const;
    // Free CPUs on node at bucket b.
    int32_t free_at(uint32_t node, int32_t b) const;

    // Calls fn(Run) for each maximal run of buckets, ending after `from`, in which node keeps at
    // least `need` CPUs free; a run that started before `from` is reported whole.
    template <class Fn>
    void for_each_run(uint32_t node, int32_t need, int32_t from, Fn &&fn) const {
        const std::vector<Step> &s = nodes_[node];
        const std::size_t n = s.size();
        std::size_t k = 0;
        while (k < n) {
            if (s[k].free < need) {
                ++k;
                continue;
            }
            const std::size_t first = k;
            while (k < n && s[k].free >= need) ++k;
            const int32_t to = k < n ? s[k].at : kForever;
            if (to > from) fn(Run{s[first].at, to, s[first].real});
        }
    }

  private:
    // Index of the step holding bucket b, splitting a step so that one begins exactly at b.
    std::size_t split(uint32_t node, int32_t b, int64_t real);

    std::vector<std::vector<Step>> nodes_;
    std::vector<uint32_t> cpus_;
    int64_t now_ = 0;
    uint32_t res_ = 60;
};

} // namespace drover::backfill
