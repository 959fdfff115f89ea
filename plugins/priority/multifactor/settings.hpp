// settings.hpp - what priority/multifactor reads from slurm.conf, with Slurm's names and
// defaults: the weights, PriorityMaxAge, PriorityFlags, PriorityFavorSmall and
// FairShareDampeningFactor.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <drover/priority.h>

namespace drover::multifactor {

// All zero, with its size set.
inline drover_priority_factors zero_factors() {
    drover_priority_factors f{};
    f.struct_size = sizeof f;
    return f;
}

struct Settings {
    // PriorityWeight*: Age, Assoc, FairShare, JobSize, Partition, QOS; and TRES (cpu, mem, node,
    // gres/gpu, in drover_priority_factors.tres order).
    drover_priority_factors weights = zero_factors();
    uint64_t max_age_s = 7 * 86400; // PriorityMaxAge (7-0)
    bool favor_small = false;       // PriorityFavorSmall
    uint32_t damping = 1;           // FairShareDampeningFactor
    // PriorityFlags.
    bool fair_tree = true;      // off with NO_FAIR_TREE
    bool accrue_always = false; // ACCRUE_ALWAYS: age counts from submission, not eligibility
    bool no_normal_qos = false, no_normal_part = false; // NO_NORMAL_QOS, NO_NORMAL_PART
    bool incr_only = false;                             // INCR_ONLY
};

// A slurm.conf lookup: the value of a key, or nullopt when it is not set.
using ConfLookup = std::function<std::optional<std::string_view>(std::string_view key)>;

// Reads the settings. Throws std::invalid_argument with one line naming the key and what was
// expected for a bad value; a TRES weight Drover does not count (only cpu, mem, node and
// gres/gpu) adds a line to warnings.
Settings read_settings(const ConfLookup &conf, std::vector<std::string> *warnings);

} // namespace drover::multifactor
