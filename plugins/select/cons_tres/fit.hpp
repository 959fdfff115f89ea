// fit.hpp - whether one node can host some of a job's tasks, now or ever.
//
// "ignore" (TEST_ONLY, and the EBUSY/ENOSPC question) reads every node as empty.
#pragma once

#include <cstdint>
#include <string_view>

#include "node_res.hpp"
#include "options.hpp"
#include "request.hpp"

namespace cons_tres {

// Why a node cannot host t tasks (Ok when it can).
enum class Misfit { Ok, Shared, Cpus, Memory, Gres, Gpus };

// CPUs the job takes on node for t tasks: t * cpus_per_task, at least --mincpus, rounded up to
// whole cores unless CR_CPU; all of them for an exclusive job. May exceed the node's CPUs.
uint64_t cpus_for(const NodeRes &node, const Options &opt, const Request &req, uint32_t tasks);

// Memory the job needs on node when it holds cpus CPUs there (0 for MemKind::None).
uint64_t mem_for(const NodeRes &node, const Request &req, uint64_t cpus);

// CPUs of node free for this job (all of them when ignoring holdings, for CR_Memory and for
// jobs that may share CPUs); under CR_Core only CPUs of wholly free cores count.
uint32_t free_cpus(const NodeRes &node, const Options &opt, const Request &req, bool ignore);

// Units of gres name (of type, when not empty) that no job holds (all when ignoring).
uint64_t free_gres(const NodeRes &node, std::string_view name, std::string_view type, bool ignore);

// GPUs node could give to --gpus after the job's other GPU needs for t tasks.
uint64_t spare_gpus(const NodeRes &node, const Request &req, uint32_t tasks, bool ignore);

// Features (for variant v of the constraint) and --tmp: what holdings never change.
bool node_matches(const NodeRes &node, const Request &req, size_t variant);

// Can node host t (>= 1) tasks of the job?
Misfit check(const NodeRes &node, const Options &opt, const Request &req, uint32_t tasks,
             bool ignore);

// The most tasks, up to limit, node can host (0 = none).
uint32_t capacity(const NodeRes &node, const Options &opt, const Request &req, bool ignore,
                  uint32_t limit);

} // namespace cons_tres
