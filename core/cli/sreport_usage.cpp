// sreport_usage.cpp - the rollup of jobs and node events into a cluster's CPU time.
#include "cli/sreport_usage.hpp"

#include <drover/views.h>

#include <algorithm>

namespace drover::cli {

namespace {

constexpr int64_t kHour = 3600;

// One hour of the window, before the caps.
struct Hour {
    int64_t alloc = 0, down = 0, planned_down = 0, planned = 0;
};

using Field = int64_t Hour::*;

// Adds weight times each second of [start, end) to the hours it falls in.
void spread(std::vector<Hour> &hours, ReportWindow w, int64_t start, int64_t end, uint64_t weight,
            Field field) {
    start = std::max(start, w.start);
    end = std::min(end, w.end);
    if (end <= start || weight == 0) return;
    for (auto h = std::size_t((start - w.start) / kHour); h < hours.size(); ++h) {
        const int64_t from = w.start + int64_t(h) * kHour;
        const int64_t to = std::min(from + kHour, w.end);
        hours[h].*field += overlap(start, end, from, to) * int64_t(weight);
        if (to >= end) break;
    }
}

// Slurm's checks on one hour: no more allocated than there is, down and then planned down cut
// to what is left, Idle the rest; Planned beyond it is Over Comm.
void close_hour(const Hour &h, int64_t total, ClusterUsage &u) {
    int64_t alloc = h.alloc, down = h.down, pdown = h.planned_down, planned = h.planned;
    if (total && total < alloc) alloc = total;
    if (total && total < alloc + down + pdown) {
        down = std::max<int64_t>(0, std::min(down, total - alloc));
        pdown = std::max<int64_t>(0, std::min(pdown, total - alloc - down));
    }
    int64_t idle = total - alloc - down - pdown - planned, over = 0;
    if (idle < 0) {
        planned = std::max<int64_t>(0, planned + idle);
        over = -idle;
        idle = 0;
    }
    u.alloc += uint64_t(alloc);
    u.down += uint64_t(down);
    u.planned_down += uint64_t(pdown);
    u.planned += uint64_t(planned);
    u.idle += uint64_t(idle);
    u.over += uint64_t(over);
}

} // namespace

int64_t overlap(int64_t start, int64_t end, int64_t from, int64_t to) {
    return std::max<int64_t>(0, std::min(end, to) - std::max(start, from));
}

ClusterUsage cluster_usage(const std::vector<UsageJob> &jobs, const std::vector<UsageEvent> &events,
                           const std::map<std::string, uint32_t> &node_cpus, ReportWindow w,
                           int64_t now) {
    std::vector<Hour> hours(std::size_t((w.end - w.start + kHour - 1) / kHour));
    for (const auto &j : jobs) {
        if (j.start) spread(hours, w, j.start, j.end ? j.end : now, j.alloc_cpus, &Hour::alloc);
        // Eligible and waiting: until it started, ended without starting, or now.
        const int64_t waited = j.start ? j.start : j.end ? j.end : now;
        if (j.eligible) spread(hours, w, j.eligible, waited, j.req_cpus, &Hour::planned);
    }
    for (const auto &e : events) {
        auto n = node_cpus.find(e.node);
        if (n == node_cpus.end()) continue;
        const bool planned =
            e.state == DROVER_NODE_FUTURE || (e.flags & DROVER_NODE_FLAG_POWERED_DOWN) != 0;
        spread(hours, w, e.start, e.end ? e.end : now, n->second,
               planned ? &Hour::planned_down : &Hour::down);
    }
    ClusterUsage u;
    for (const auto &[name, cpus] : node_cpus) u.cpus += cpus;
    for (std::size_t h = 0; h < hours.size(); ++h) {
        const int64_t from = w.start + int64_t(h) * kHour;
        close_hour(hours[h], int64_t(u.cpus) * (std::min(from + kHour, w.end) - from), u);
    }
    return u;
}

std::map<AssocKey, uint64_t> assoc_usage(const std::vector<UsageJob> &jobs, ReportWindow w,
                                         int64_t now) {
    std::map<AssocKey, uint64_t> out;
    for (const auto &j : jobs) {
        if (!j.start) continue;
        const int64_t secs = overlap(j.start, j.end ? j.end : now, w.start, w.end);
        if (secs > 0) out[{j.account, j.user}] += uint64_t(secs) * j.alloc_cpus;
    }
    return out;
}

int64_t job_elapsed(const UsageJob &j, ReportWindow w) {
    const int64_t end = (!j.end || j.end > w.end) ? w.end : j.end;
    const int64_t start = j.start ? std::max(j.start, w.start) : end;
    return std::max<int64_t>(0, end - start);
}

} // namespace drover::cli
