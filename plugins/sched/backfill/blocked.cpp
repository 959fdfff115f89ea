// blocked.cpp - a job's reservation windows read from the core into bucket stretches per node.
#include "blocked.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>

namespace drover::backfill {

Blocked Blocked::load(const drover_sched_host *host, drover_sched_pass *pass, uint32_t job_id,
                      uint32_t node_count, const Timeline &tl) {
    Blocked b;
    // A core older than ABI 1.10 has no reservations to tell of.
    if (host->struct_size < offsetof(drover_sched_host, blocked_window) + sizeof(void *)) return b;
    const uint32_t n = host->blocked_count(pass, job_id);
    if (n == 0) return b;
    std::vector<uint64_t> words(std::max<std::size_t>(1, (node_count + 63) / 64), 0);
    for (uint32_t w = 0; w < n; ++w) {
        drover_bitmap nodes{words.data(), node_count};
        int64_t start = 0, end = 0;
        if (host->blocked_window(pass, job_id, w, &nodes, &start, &end) != DROVER_OK) continue;
        // The bucket the window starts in is barred whole, and so is the one it ends in.
        const int32_t from = start <= tl.now()
                                 ? 0
                                 : static_cast<int32_t>(std::min<int64_t>(
                                       (start - tl.now()) / tl.resolution(), kForever - 1));
        const int32_t to = tl.release_bucket(end);
        for (std::size_t k = 0; k < words.size(); ++k) {
            uint64_t bits = words[k];
            while (bits) {
                const uint32_t i = uint32_t(k * 64) + uint32_t(std::countr_zero(bits));
                bits &= bits - 1;
                if (i < node_count) b.by_node_[i].push_back({from, to, end});
            }
        }
    }
    for (auto &[node, stretches] : b.by_node_)
        std::sort(stretches.begin(), stretches.end(),
                  [](const Stretch &x, const Stretch &y) { return x.from < y.from; });
    return b;
}

int64_t Blocked::free_since(uint32_t node, int32_t b) const {
    int64_t since = 0;
    if (auto it = by_node_.find(node); it != by_node_.end())
        for (const Stretch &s : it->second)
            if (s.to <= b) since = std::max(since, s.real_end);
    return since;
}

bool Blocked::clear(uint32_t node, int32_t from, int32_t to) const {
    auto it = by_node_.find(node);
    if (it == by_node_.end()) return true;
    for (const Stretch &s : it->second)
        if (s.from < to && from < s.to) return false;
    return true;
}

} // namespace drover::backfill
