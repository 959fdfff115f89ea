// node_res.hpp - one node as select/cons_tres sees it: what it has and what jobs hold on it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <drover/views.h>

namespace cons_tres {

// The units of one generic resource on a node, numbered 0..n-1 in the order the node lists them
// ("gpu:a100:2,gpu:v100:2": gpu 0-1 are a100, 2-3 v100).
struct GresPool {
    std::string name;
    std::vector<std::string> types; // per index; empty = untyped
    std::vector<uint16_t> used;     // per index: how many jobs hold it (0 or 1)
    size_t size() const { return types.size(); }
};

struct NodeRes {
    // What the node has.
    std::string name;
    uint32_t cpus = 1;
    uint32_t threads_per_core = 1;
    uint64_t mem_mb = 0;
    uint64_t tmp_mb = 0;
    uint32_t weight = 0;
    std::vector<std::string> features; // sorted
    std::vector<GresPool> gres;
    // What jobs hold.
    std::vector<uint16_t> cpu_use; // per CPU id: how many jobs hold it
    uint32_t free_cpus = 0;        // CPUs no job holds (kept by refresh_free)
    uint32_t free_core_cpus = 0;   // CPUs of cores no job holds any thread of (refresh_free)
    uint64_t mem_used = 0;
    uint32_t jobs = 0;
    uint32_t exclusive_jobs = 0;

    // Recounts free_cpus and free_core_cpus from cpu_use.
    void refresh_free();
    // The pool of name, or nullptr.
    const GresPool *pool(std::string_view gres_name) const;
    GresPool *pool(std::string_view gres_name);
};

// Most units of one generic resource a node may have: more are ignored with a warning.
inline constexpr uint64_t kMaxGresUnits = 4096;

// Builds a node from the core's view (gres only when the view has the member). Problems in the
// view's gres string are appended to warnings and that string is ignored.
NodeRes node_from_view(const drover_node_view &v, std::vector<std::string> &warnings);

// The node views as an array whose element size is the core's (nodes[0].struct_size), so that a
// view from an older, shorter layout is still walked correctly.
const drover_node_view &node_view_at(const drover_node_view *nodes, uint32_t i);

} // namespace cons_tres
