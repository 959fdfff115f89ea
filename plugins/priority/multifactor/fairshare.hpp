// fairshare.hpp - the two fair-share algorithms of priority/multifactor, over the core's tree
// (drover/priority.h: parents before children, the root at index 0). Each sets shares_norm,
// usage_norm, usage_eff, level_fs and fairshare of every association.
#pragma once

#include <cstdint>
#include <span>

#include <drover/priority.h>

namespace drover::multifactor {

// Fair Tree (Slurm's default since 19.05): siblings are ranked by LevelFS (their share of their
// siblings' shares over their share of their siblings' usage), depth first from the root; each
// user's factor is its rank over the number of users, so any user under a better-behaved
// account comes before every user under a worse one. Equal LevelFS ties: users share a rank,
// accounts are merged before their users are ranked.
void fair_tree(std::span<drover_priority_assoc> assocs);

// Classic fair-share (PriorityFlags=NO_FAIR_TREE): F = 2^(-(EffectvUsage / NormShares) /
// damping), where EffectvUsage blends an association's own normalised usage with its parent's
// effective usage in proportion to its share of its siblings.
void classic(std::span<drover_priority_assoc> assocs, uint32_t damping);

} // namespace drover::multifactor
