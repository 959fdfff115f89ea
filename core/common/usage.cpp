// usage.cpp - combining step usage summaries from several nodes.
#include "common/usage.hpp"

namespace drover {

namespace {

// The larger of two maxima, with where it was seen; a tie keeps the first.
void keep_max(uint64_t &value, std::string &node, uint32_t &task, uint64_t other,
              const std::string &other_node, uint32_t other_task) {
    if (other <= value) return;
    value = other;
    node = other_node;
    task = other_task;
}

// (a * na + b * nb) / (na + nb), rounded to nearest, without overflow.
uint64_t weighted(uint64_t a, uint32_t na, uint64_t b, uint32_t nb) {
    using wide = unsigned __int128;
    const wide n = wide{na} + nb;
    const wide sum = wide{a} * na + wide{b} * nb;
    return static_cast<uint64_t>((sum + n / 2) / n);
}

} // namespace

void merge(StepUsageSummary &into, const StepUsageSummary &from) {
    into.user_cpu_usec += from.user_cpu_usec;
    into.sys_cpu_usec += from.sys_cpu_usec;
    into.oom_kills += from.oom_kills;
    if (from.tasks == 0) return;
    if (into.tasks == 0) { // nothing measured yet: from's figures, with the totals so far
        StepUsageSummary totals = into;
        into = from;
        into.user_cpu_usec = totals.user_cpu_usec;
        into.sys_cpu_usec = totals.sys_cpu_usec;
        into.oom_kills = totals.oom_kills;
        return;
    }

    keep_max(into.max_rss, into.max_rss_node, into.max_rss_task, from.max_rss, from.max_rss_node,
             from.max_rss_task);
    keep_max(into.max_vsize, into.max_vsize_node, into.max_vsize_task, from.max_vsize,
             from.max_vsize_node, from.max_vsize_task);
    keep_max(into.max_disk_read, into.max_disk_read_node, into.max_disk_read_task,
             from.max_disk_read, from.max_disk_read_node, from.max_disk_read_task);
    keep_max(into.max_disk_write, into.max_disk_write_node, into.max_disk_write_task,
             from.max_disk_write, from.max_disk_write_node, from.max_disk_write_task);
    if (from.min_cpu_usec < into.min_cpu_usec) {
        into.min_cpu_usec = from.min_cpu_usec;
        into.min_cpu_node = from.min_cpu_node;
        into.min_cpu_task = from.min_cpu_task;
    }

    const uint32_t a = into.tasks, b = from.tasks;
    into.ave_rss = weighted(into.ave_rss, a, from.ave_rss, b);
    into.ave_vsize = weighted(into.ave_vsize, a, from.ave_vsize, b);
    into.ave_cpu_usec = weighted(into.ave_cpu_usec, a, from.ave_cpu_usec, b);
    into.ave_disk_read = weighted(into.ave_disk_read, a, from.ave_disk_read, b);
    into.ave_disk_write = weighted(into.ave_disk_write, a, from.ave_disk_write, b);
    into.tasks += from.tasks;
}

} // namespace drover
