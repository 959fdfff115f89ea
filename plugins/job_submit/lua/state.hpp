// state.hpp - one job_submit/lua instance: the loaded job_submit.lua, what the Lua side of it
// needs from the host, and the call in progress.
#pragma once

#include <ctime>
#include <mutex>
#include <string>

#include <drover/job_submit.h>
#include <drover/plugin.hpp>

struct lua_State;

namespace drover::jslua {

// The job_submit call in progress: slurm.user_msg adds its lines to this description.
struct Call {
    const drover_job_submit_host *host = nullptr;
    drover_job_desc *desc = nullptr;
};

struct State {
    drover::sdk::Host host;
    std::string path;         // job_submit.lua, next to slurm.conf
    std::string cluster_name; // slurm.CLUSTER_NAME
    lua_State *L = nullptr;   // the script as last loaded successfully
    timespec loaded_mtime{};  // the file's mtime when L was loaded
    // The last version of the file that would not load (or the stat failure), so that a broken
    // script is reported once and not on every submission until someone fixes it.
    timespec failed_mtime{};
    bool stat_failed = false;
    Call call;
    // The controller calls from one thread; the lock keeps the one lua_State single-threaded
    // even if a future caller does not.
    std::mutex mu;

    State() = default;
    State(const State &) = delete;
    State &operator=(const State &) = delete;
    ~State();
};

} // namespace drover::jslua
