// allocation.hpp - a job's hold on its nodes as the select plugin records it: taken at start,
// given back at the end or on requeue, with one policy for the plugin's refusals.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "common/status.hpp"
#include "plugin/select_calls.hpp"

namespace drover::ctld {

struct Job;

// Records with the select plugin that job holds picked (indexes into a node table of node_count)
// and, when it agrees, fills job.nodes, node_cpus, node_alloc and alloc_cpus from what it tells
// (all_cpus(i): every CPU of node i, for a plugin that does not say). When it refuses, the job is
// left as it was and must not start: the plugin does not count it, so its nodes would be handed
// out twice. Nothing else of the job (state, times) is touched.
Status allocate(const plugin::SelectCalls &sel, Job &job, const std::vector<uint32_t> &picked,
                std::size_t node_count, const std::function<uint32_t(uint32_t)> &all_cpus);

// Tells the select plugin that job no longer holds its nodes (when: "end", "requeue"). The nodes
// return to the core whatever it answers, so a refusal is only logged, with the job's id: the
// plugin may count them as taken until its next node_init.
void release(const plugin::SelectCalls &sel, const Job &job, std::string_view when);

// Clears what allocate filled in (the job holds no node any more).
void forget_nodes(Job &job);

// Tells the select plugin that the job was suspended (its CPUs free for others) or resumed
// (taking them back). A refusal is logged: the job is suspended or resumed all the same.
void suspend_hold(const plugin::SelectCalls &sel, const Job &job, bool suspended);

} // namespace drover::ctld
