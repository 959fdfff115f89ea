// timeline.cpp - per-node step functions of free CPUs.
#include "timeline.hpp"

#include <algorithm>

namespace drover::backfill {

void Timeline::reset(const std::vector<uint32_t> &cpus, int64_t now, uint32_t res) {
    now_ = now;
    res_ = res ? res : 1;
    cpus_ = cpus;
    nodes_.assign(cpus.size(), {});
    for (std::size_t i = 0; i < cpus.size(); ++i)
        nodes_[i].push_back(Step{0, static_cast<int32_t>(cpus[i]), now});
}

int32_t Timeline::release_bucket(int64_t end) const {
    if (end == 0) return kForever;
    if (end <= now_) return 1;
    const int64_t b = (end - now_ + res_ - 1) / res_;
    return b >= kForever ? kForever - 1 : static_cast<int32_t>(b);
}

int32_t Timeline::length_buckets(uint32_t limit_min) const {
    if (limit_min == 0xffffffffu) // DROVER_INFINITE
        return kForever;
    const int64_t b = (int64_t{limit_min} * 60 + res_ - 1) / res_;
    return static_cast<int32_t>(std::clamp<int64_t>(b, 1, kForever - 1));
}

int64_t Timeline::real_time(int32_t bucket) const {
    return bucket == kForever ? 0 : now_ + int64_t{bucket} * res_;
}

std::size_t Timeline::split(uint32_t node, int32_t b, int64_t real) {
    std::vector<Step> &s = nodes_[node];
    // The last step that begins at or before b (the first always begins at 0).
    auto it = std::upper_bound(s.begin(), s.end(), b,
                               [](int32_t v, const Step &st) { return v < st.at; });
    std::size_t k = static_cast<std::size_t>(it - s.begin()) - 1;
    if (s[k].at == b) return k;
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(k + 1), Step{b, s[k].free, real});
    return k + 1;
}

void Timeline::use(uint32_t node, int32_t from, int32_t to, uint32_t cpus, int64_t real_to) {
    if (cpus == 0 || from >= to) return;
    std::size_t first = split(node, from, real_time(from));
    std::size_t last = nodes_[node].size(); // one past the steps to lower
    if (to != kForever) {
        last = split(node, to, real_to);
        Step &after = nodes_[node][last];
        after.real = std::max(after.real, real_to);
    }
    std::vector<Step> &s = nodes_[node];
    for (std::size_t k = first; k < last; ++k) s[k].free -= static_cast<int32_t>(cpus);
    // Neighbours at the same level are one step.
    std::size_t w = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (w > 0 && s[w - 1].free == s[k].free) continue;
        s[w++] = s[k];
    }
    s.resize(w);
}

int32_t Timeline::min_free(uint32_t node, int32_t from, int32_t to) const {
    const std::vector<Step> &s = nodes_[node];
    int32_t least = std::numeric_limits<int32_t>::max();
    for (std::size_t k = 0; k < s.size(); ++k) {
        const int32_t end = k + 1 < s.size() ? s[k + 1].at : kForever;
        if (end <= from) continue;
        if (s[k].at >= to) break;
        least = std::min(least, s[k].free);
    }
    return least;
}

int32_t Timeline::free_at(uint32_t node, int32_t b) const {
    return min_free(node, b, b + 1);
}

} // namespace drover::backfill
