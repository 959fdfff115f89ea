// resv_flags.hpp - the flags of an advance reservation (scontrol's Flags=), as bits on the wire
// and in the state store, and as Slurm's names: the controller reads them, the commands print them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace drover {

enum ResvFlag : uint64_t {
    kResvMaint = 1u << 0,      // maintenance: blocked jobs wait "Reserved for maintenance"; may
                               // overlap other reservations
    kResvOverlap = 1u << 1,    // may share nodes and time with another reservation
    kResvIgnoreJobs = 1u << 2, // created even where running jobs hold its nodes
    kResvHourly = 1u << 3,     // recurs: ends, then starts again an hour later
    kResvDaily = 1u << 4,
    kResvWeekday = 1u << 5, // recurs on the next weekday (Monday to Friday)
    kResvWeekend = 1u << 6, // recurs on the next Saturday or Sunday
    kResvWeekly = 1u << 7,
    kResvFlex = 1u << 8,       // its jobs may start before it and use nodes outside it
    kResvMagnetic = 1u << 9,   // jobs that may use it run in it without asking for it
    kResvPurgeComp = 1u << 10, // deleted once its last job ends
    kResvSpecNodes = 1u << 11, // shown when Nodes= named the nodes
    kResvAllNodes = 1u << 12,  // shown for Nodes=ALL
    kResvNoHoldJobsAfter = 1u << 13,
};
inline constexpr uint64_t kResvRecurring =
    kResvHourly | kResvDaily | kResvWeekday | kResvWeekend | kResvWeekly;

// "MAINT,ignore_jobs" -> bits (any case); throws ParseError naming an unknown flag.
uint64_t parse_resv_flags(std::string_view text);
// Bits -> "MAINT,SPEC_NODES", in the order scontrol shows them; empty for none.
std::string format_resv_flags(uint64_t flags);

} // namespace drover
