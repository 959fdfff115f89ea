// slurm_table.hpp - the global `slurm` table job_submit.lua scripts written for Slurm use: the
// log functions, slurm.user_msg, slurm.time_str2mins, return codes (slurm.SUCCESS,
// slurm.ESLURM_*) and the constants for reading job fields (slurm.NO_VAL, slurm.INFINITE, ...).
#pragma once

#include <cstdint>
#include <string_view>

#include "state.hpp"

namespace drover::jslua {

// Slurm's markers for "not set" and "no limit" in 32-bit fields.
inline constexpr int64_t kNoVal = 0xfffffffe;
inline constexpr int64_t kInfinite = 0xffffffff;

// Builds the table and leaves it on top of L's stack. Its functions keep st (which outlives L).
void push_slurm_table(lua_State *L, State *st);

// Slurm's time_str2mins: "min", "min:sec", "hr:min:sec", "days-hr[:min[:sec]]" to minutes,
// rounded up; -1 for "-1", "INFINITE" or "UNLIMITED"; -2 for anything else. (Slurm returns
// INFINITE and NO_VAL through an int, so scripts see -1 and -2; we give them the same.)
int64_t time_str2mins(std::string_view s);

} // namespace drover::jslua
