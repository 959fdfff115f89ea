// options.hpp - what select/cons_tres reads from slurm.conf: SelectTypeParameters and the memory
// defaults (DefMemPerCPU, DefMemPerNode).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cons_tres {

struct Options {
    std::string base = "CR_Core_Memory"; // the consumable-resource mode in effect
    bool cpu_unit = false; // CR_CPU*: CPUs (threads) are allocated one by one; else whole cores
    bool cpus_consumable = true;   // false for CR_Memory: CPUs are shared freely
    bool mem_consumable = true;    // *_Memory (and CR_Memory)
    uint64_t def_mem_per_cpu = 0;  // DefMemPerCPU in MB; 0 = not set
    uint64_t def_mem_per_node = 0; // DefMemPerNode in MB; 0 = not set (or UNLIMITED)
    std::vector<std::string> warnings;
};

// Reads SelectTypeParameters ("CR_Core_Memory,CR_LLN": one CR_ base and flags; nullopt or no
// base gives CR_Core_Memory, Slurm's default for cons_tres) and the memory defaults. CR_Socket*
// and CR_Board are read as CR_Core*, with a warning; flags Drover does not use are ignored with
// a warning. Unreadable memory values are warned about and read as not set.
Options parse_options(std::optional<std::string_view> select_type_parameters,
                      std::optional<std::string_view> def_mem_per_cpu,
                      std::optional<std::string_view> def_mem_per_node);

} // namespace cons_tres
