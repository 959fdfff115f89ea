// script.cpp - loading and reloading job_submit.lua (script.hpp).
#include "script.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include <lua.hpp>

#include "slurm_table.hpp"

namespace drover::jslua {

State::~State() {
    if (L) lua_close(L);
}

namespace {

bool same_time(const timespec &a, const timespec &b) {
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

// The standard libraries (sites' scripts use io, os and string) and the slurm table, run
// protected so that running out of memory here is an error rather than Lua's panic (abort).
int setup(lua_State *L) {
    auto *st = static_cast<State *>(lua_touserdata(L, 1));
    luaL_openlibs(L);
    push_slurm_table(L, st);
    lua_setglobal(L, "slurm");
    return 0;
}

// After the chunk ran: Slurm refuses a script whose top level returns a non-zero number.
std::string check_chunk_result(lua_State *L) {
    if (!lua_isnumber(L, -1)) return {};
    lua_Number v = lua_tonumber(L, -1);
    if (std::trunc(v) == 0) return {};
    lua_pushvalue(L, -1);
    std::string shown = lua_tostring(L, -1);
    lua_pop(L, 1);
    return "returned " + shown + " when loaded (0 or nothing expected)";
}

std::string check_functions(lua_State *L) {
    std::string missing;
    for (const char *fn : {kSubmitFn, kModifyFn}) {
        bool ok = lua_getglobal(L, fn) == LUA_TFUNCTION;
        lua_pop(L, 1);
        if (!ok) missing += (missing.empty() ? "" : " and ") + std::string(fn);
    }
    return missing.empty() ? missing : "does not define " + missing;
}

// A new state with st.path loaded and run, or nullptr with *why.
lua_State *load(State &st, std::string *why) {
    lua_State *L = luaL_newstate();
    if (!L) {
        *why = "cannot create a Lua state (out of memory)";
        return nullptr;
    }
    lua_pushcfunction(L, setup);
    lua_pushlightuserdata(L, &st);
    std::string err;
    if (lua_pcall(L, 1, 0, 0) != LUA_OK)
        err = error_text(L, -1);
    else if (luaL_loadfile(L, st.path.c_str()) != LUA_OK)
        err = error_text(L, -1); // Lua's text names the file and, for syntax errors, the line
    else if (lua_pcall(L, 0, 1, 0) != LUA_OK)
        err = error_text(L, -1);
    else
        err = check_chunk_result(L);
    if (err.empty()) err = check_functions(L);
    if (!err.empty()) {
        lua_close(L);
        *why = err;
        return nullptr;
    }
    lua_settop(L, 0);
    return L;
}

} // namespace

std::string error_text(lua_State *L, int idx) {
    if (lua_type(L, idx) == LUA_TSTRING || lua_type(L, idx) == LUA_TNUMBER) {
        lua_pushvalue(L, idx); // lua_tostring would turn a number in place into a string
        std::string s = lua_tostring(L, -1);
        lua_pop(L, 1);
        return s;
    }
    return std::string("(error object is a ") + luaL_typename(L, idx) + " value)";
}

std::string script_path(std::string_view config_dir) {
    std::string p(config_dir.empty() ? std::string_view("/etc/slurm/") : config_dir);
    if (p.back() != '/') p += '/';
    return p + "job_submit.lua";
}

bool load_first(State &st, std::string *why) {
    struct stat sb {};
    if (stat(st.path.c_str(), &sb) != 0) {
        *why = st.path + ": " + std::strerror(errno);
        return false;
    }
    std::string err;
    lua_State *L = load(st, &err);
    if (!L) {
        *why = st.path + ": " + err;
        return false;
    }
    st.L = L;
    st.loaded_mtime = sb.st_mtim;
    st.host.info("loaded " + st.path);
    return true;
}

void reload_if_changed(State &st) {
    struct stat sb {};
    if (stat(st.path.c_str(), &sb) != 0) {
        if (!st.stat_failed)
            st.host.error(st.path + ": " + std::strerror(errno) + "; still using the script " +
                          "loaded before");
        st.stat_failed = true;
        return;
    }
    st.stat_failed = false;
    if (same_time(sb.st_mtim, st.loaded_mtime) || same_time(sb.st_mtim, st.failed_mtime)) return;
    std::string err;
    lua_State *L = load(st, &err);
    if (!L) {
        st.failed_mtime = sb.st_mtim;
        st.host.error(st.path + ": " + err + "; still using the script loaded before");
        return;
    }
    lua_close(st.L);
    st.L = L;
    st.loaded_mtime = sb.st_mtim;
    st.failed_mtime = {};
    st.host.info("reloaded " + st.path);
}

} // namespace drover::jslua
