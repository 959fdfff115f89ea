// script.hpp - loading job_submit.lua, and loading it again when the file changes, as Slurm's
// job_submit/lua does: a site edits the script and the next submission uses it, no restart.
#pragma once

#include <string>
#include <string_view>

#include "state.hpp"

struct lua_State;

namespace drover::jslua {

// The functions a script must define (a missing one fails the load, as in Slurm).
inline constexpr const char *kSubmitFn = "slurm_job_submit";
inline constexpr const char *kModifyFn = "slurm_job_modify";

// job_submit.lua in config_dir (slurm.conf's directory, with or without its trailing '/');
// /etc/slurm/ when the host does not say.
std::string script_path(std::string_view config_dir);

// At init: loads st.path into st.L. False, with *why naming the file and Lua's message, when the
// file is missing, does not compile, raises an error or returns non-zero at its top level, or
// lacks one of the two functions.
bool load_first(State &st, std::string *why);

// Before each call: when the file's mtime differs from the loaded version's, loads it into a new
// state and swaps it in. A version that does not load is logged once as an error and the state
// loaded before stays in use (Slurm's behaviour), as it does while the file cannot be stat()ed.
void reload_if_changed(State &st);

// Lua's error value at idx as text (an error() with a table, say, has no text of its own).
std::string error_text(lua_State *L, int idx);

} // namespace drover::jslua
