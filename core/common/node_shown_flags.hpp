// node_shown_flags.hpp - what the controller shows of a node beside its own state and flags
// (NodeInfo.flags carries both): whether it is in an advance reservation now, as Slurm's RESERVED
// and MAINT flags. Not node state: the reservations decide them each time a node is shown, and
// the SDK's DROVER_NODE_FLAG_* bits stay below these.
#pragma once

#include <cstdint>

namespace drover {

inline constexpr uint32_t kNodeShownReserved = 1u << 30; // in an active reservation
inline constexpr uint32_t kNodeShownMaint = 1u << 31;    // ... one with the MAINT flag

} // namespace drover
