// job_submit_lua.cpp - job_submit/lua (JobSubmitPlugins=lua): runs the site's job_submit.lua,
// from slurm.conf's directory, on every submission and job update, as Slurm's plugin does. The
// script defines
//     slurm_job_submit(job_desc, part_list, submit_uid)
//     slurm_job_modify(job_desc, job_rec, part_list, submit_uid)
// and returns slurm.SUCCESS to accept or another code to refuse. job_desc reads and changes the
// description through the host (job_desc.hpp); the `slurm` table is in slurm_table.hpp; loading
// and reloading in script.hpp.
//
// What Drover does not give a script yet: part_list is an empty table (no partition records
// cross the ABI), job_rec holds only job_id, and there is no slurm.jobs or slurm.reservations.
#include <dlfcn.h>

#include <climits>
#include <memory>
#include <string>

#include <lua.hpp>

#include <drover/job_submit.h>
#include <drover/plugin.hpp>

#include "job_desc.hpp"
#include "script.hpp"
#include "state.hpp"

namespace {

using drover::jslua::State;
using drover::sdk::guard;

// The function's answer: a number is the return code (truncated to an int, as Slurm converts
// it); anything else accepts the job, as Slurm does, with a note in the log.
int result_code(State &st, const char *fn, lua_State *L) {
    if (!lua_isnumber(L, -1)) {
        st.host.info(std::string(fn) + " returned no number; accepting the job, as Slurm does");
        return DROVER_OK;
    }
    lua_Number v = lua_tonumber(L, -1);
    int rc = v > INT_MIN - 1.0 && v < INT_MAX + 1.0 ? static_cast<int>(v) : DROVER_EPERM;
    if (rc != DROVER_OK) st.host.debug(std::string(fn) + " refused the job: " + std::to_string(rc));
    return rc;
}

// A script that raised an error refuses the job with that error (Slurm returns SLURM_ERROR).
int script_error(State &st, const char *fn, lua_State *L, drover_error *err) {
    std::string msg = drover::jslua::error_text(L, -1);
    st.host.error(std::string(fn) + ": " + msg);
    drover::sdk::set_error(err, "job_submit/lua: " + msg);
    return DROVER_EPERM; // -1, SLURM_ERROR
}

// Calls fn with Slurm's arguments: (job_desc, part_list, uid) for a submission, (job_desc,
// job_rec, part_list, uid) for an update (job_id set). A refusal by return code leaves err empty:
// the core then shows the script's slurm.user_msg lines in full, or "Unspecified error".
int run_hook(State &st, const char *fn, const drover_job_submit_host *host, drover_job_desc *desc,
             const uint32_t *job_id, uint32_t uid, drover_error *err) {
    std::lock_guard lock(st.mu);
    drover::jslua::reload_if_changed(st);
    lua_State *L = st.L;
    const int top = lua_gettop(L);
    // Kept at top + 1 for the whole call, so it outlives the script even if nothing else holds it.
    drover::jslua::DescRef *ref = drover::jslua::push_desc_ref(L, host, desc);
    lua_getglobal(L, fn);
    drover::jslua::push_job_desc(L, top + 1);
    int nargs = 3;
    if (job_id) {
        lua_createtable(L, 0, 1); // job_rec
        lua_pushinteger(L, *job_id);
        lua_setfield(L, -2, "job_id");
        nargs = 4;
    }
    lua_newtable(L); // part_list
    lua_pushinteger(L, uid);
    st.call = {host, desc};
    int status = lua_pcall(L, nargs, 1, 0);
    st.call = {};
    ref->host = nullptr; // job_desc kept past the call now raises an error instead
    ref->desc = nullptr;
    int rc = status == LUA_OK ? result_code(st, fn, L) : script_error(st, fn, L, err);
    lua_settop(L, top);
    return rc;
}

int jsl_submit(void *state, const drover_job_submit_host *host, drover_job_desc *desc,
               uint32_t submit_uid, drover_error *err) {
    return guard(err, [&] {
        return run_hook(*static_cast<State *>(state), drover::jslua::kSubmitFn, host, desc, nullptr,
                        submit_uid, err);
    });
}

int jsl_modify(void *state, const drover_job_submit_host *host, drover_job_desc *desc,
               uint32_t job_id, uint32_t submit_uid, drover_error *err) {
    return guard(err, [&] {
        return run_hook(*static_cast<State *>(state), drover::jslua::kModifyFn, host, desc, &job_id,
                        submit_uid, err);
    });
}

// The core loads plugins with RTLD_LOCAL, which hides liblua's symbols from the Lua C modules a
// script may require (Debian builds them without a link to liblua). Making the already loaded
// liblua global, as Slurm does with its own dlopen, lets them resolve. Best effort: a script
// that needs no C module works either way.
void make_lua_global() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&lua_newstate), &info) && info.dli_fname)
        dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
}

int jsl_init(drover_ctx *ctx, const drover_host_api *host, void **state_out, drover_error *err) {
    return guard(err, [&] {
        auto st = std::make_unique<State>();
        st->host = drover::sdk::Host(ctx, host);
        st->path = drover::jslua::script_path(st->host.conf("drover.config_dir").value_or(""));
        st->cluster_name = std::string(st->host.conf("ClusterName").value_or(""));
        make_lua_global();
        std::string why;
        // As in Slurm, a script that is missing or does not load keeps the plugin (and so the
        // controller) from starting.
        if (!drover::jslua::load_first(*st, &why)) {
            drover::sdk::set_error(err, why);
            return DROVER_EINVAL;
        }
        *state_out = st.release();
        return DROVER_OK;
    });
}

void jsl_fini(void *state) {
    delete static_cast<State *>(state);
}

const drover_job_submit_ops jsl_ops = {
    .struct_size = sizeof(drover_job_submit_ops),
    .job_submit = jsl_submit,
    .job_modify = jsl_modify,
};

} // namespace

DROVER_PLUGIN("job_submit", "lua", "0.1.0", jsl_init, jsl_fini, &jsl_ops)
