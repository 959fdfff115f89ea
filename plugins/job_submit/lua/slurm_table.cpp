// slurm_table.cpp - the `slurm` table given to job_submit.lua (slurm_table.hpp).
//
// The C functions here run inside Lua calls, where a Lua error unwinds by longjmp: none of them
// holds a C++ object with a destructor across a call that may raise one.
#include "slurm_table.hpp"

#include <string>

#include <lua.hpp>

namespace drover::jslua {

namespace {

// slurm.log's levels, as Slurm numbers them: 0 info, 1 verbose, 2.. debug, debug2, ...
constexpr int kLuaInfo = 0;
// Upvalue markers for the formatted variants that are not plain log levels.
constexpr int kToError = -1;
constexpr int kToUser = -2;

State *state_of(lua_State *L) {
    return static_cast<State *>(lua_touserdata(L, lua_upvalueindex(1)));
}

// Drover has four levels: Slurm's info stays info, verbose and every debug level are debug.
void emit(State *st, int slurm_level, std::string_view msg) noexcept {
    if (slurm_level < kToError) return;
    int level = slurm_level == kToError   ? DROVER_LOG_ERROR
                : slurm_level == kLuaInfo ? DROVER_LOG_INFO
                                          : DROVER_LOG_DEBUG;
    std::string line = "lua: ";
    line.append(msg);
    st->host.log(level, line);
}

// Adds a line to the submitter's message for the call in progress (Slurm's slurm.user_msg).
void add_user_msg(State *st, const char *text) noexcept {
    const Call &c = st->call;
    if (c.host && c.desc && DROVER_HAS(drover_job_submit_host, c.host, user_msg) &&
        c.host->user_msg) {
        c.host->user_msg(c.desc, text);
        return;
    }
    // Only reachable from the script's top level (at load time), where there is no submitter.
    std::string line = "slurm.user_msg outside a job submission, dropped: ";
    line.append(text);
    st->host.warn(line);
}

// Replaces the arguments from `first` up with string.format(...) of them (upvalue 2), as
// Slurm's slurm.log_info("fmt %s", x) and friends do; a bad format raises string.format's error.
const char *format_args(lua_State *L, int first) {
    int n = lua_gettop(L) - first + 1;
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_insert(L, first);
    lua_call(L, n, 1);
    return luaL_tolstring(L, -1, nullptr);
}

// slurm.log(level, msg): Slurm's raw log call.
int l_log(lua_State *L) {
    int level = static_cast<int>(lua_tointeger(L, 1));
    const char *msg = luaL_tolstring(L, 2, nullptr);
    if (level >= kLuaInfo) emit(state_of(L), level, msg);
    return 0;
}

// slurm.error(msg)
int l_error(lua_State *L) {
    emit(state_of(L), kToError, luaL_tolstring(L, 1, nullptr));
    return 0;
}

// slurm.log_info/log_verbose/log_debug*/log_error/log_user(fmt, ...): upvalue 3 is the level.
int l_log_fmt(lua_State *L) {
    int level = static_cast<int>(lua_tointeger(L, lua_upvalueindex(3)));
    const char *msg = format_args(L, 1);
    if (level == kToUser)
        add_user_msg(state_of(L), msg);
    else
        emit(state_of(L), level, msg);
    return 0;
}

// slurm.user_msg(msg): Slurm takes one string as it is; more arguments are formatted, as
// slurm.log_user would.
int l_user_msg(lua_State *L) {
    const char *msg = lua_gettop(L) > 1 ? format_args(L, 1) : luaL_tolstring(L, 1, nullptr);
    add_user_msg(state_of(L), msg);
    return 0;
}

int l_time_str2mins(lua_State *L) {
    size_t len = 0;
    const char *s = lua_tolstring(L, 1, &len);
    lua_pushinteger(L, s ? time_str2mins(std::string_view(s, len)) : -2);
    return 1;
}

// Pushes fn as a closure over (state, string.format[, level]) and stores it as t[name].
void set_fn(lua_State *L, State *st, const char *name, lua_CFunction fn, int level,
            bool with_level) {
    lua_pushlightuserdata(L, st);
    lua_getglobal(L, "string");
    lua_getfield(L, -1, "format");
    lua_remove(L, -2);
    if (with_level) lua_pushinteger(L, level);
    lua_pushcclosure(L, fn, with_level ? 3 : 2);
    lua_setfield(L, -2, name);
}

void set_functions(lua_State *L, State *st) {
    set_fn(L, st, "log", l_log, 0, false);
    set_fn(L, st, "error", l_error, 0, false);
    set_fn(L, st, "user_msg", l_user_msg, 0, false);
    set_fn(L, st, "time_str2mins", l_time_str2mins, 0, false);
    static const struct {
        const char *name;
        int level;
    } kFormatted[] = {{"log_error", kToError}, {"log_info", 0},      {"log_verbose", 1},
                      {"log_debug", 2},        {"log_debug2", 3},    {"log_debug3", 4},
                      {"log_debug4", 5},       {"log_user", kToUser}};
    for (const auto &f : kFormatted) set_fn(L, st, f.name, l_log_fmt, f.level, true);
}

// Return codes a script hands back, with slurm_errno.h's numbers (the ones a job_submit script
// has a use for; Slurm exports its whole error table).
struct IntConst {
    const char *name;
    int64_t value;
};
constexpr IntConst kCodes[] = {
    {"SUCCESS", 0},
    {"ERROR", -1},
    {"FAILURE", -1},
    {"ESLURM_INVALID_PARTITION_NAME", 2000},
    {"ESLURM_DEFAULT_PARTITION_NOT_SET", 2001},
    {"ESLURM_ACCESS_DENIED", 2002},
    {"ESLURM_JOB_MISSING_REQUIRED_PARTITION_GROUP", 2003},
    {"ESLURM_REQUESTED_NODES_NOT_IN_PARTITION", 2004},
    {"ESLURM_TOO_MANY_REQUESTED_CPUS", 2005},
    {"ESLURM_INVALID_NODE_COUNT", 2006},
    {"ESLURM_JOB_MISSING_SIZE_SPECIFICATION", 2008},
    {"ESLURM_JOB_SCRIPT_MISSING", 2009},
    {"ESLURM_USER_ID_MISSING", 2010},
    {"ESLURM_PATHNAME_TOO_LONG", 2012},
    {"ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE", 2014},
    {"ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE", 2015},
    {"ESLURM_INVALID_JOB_ID", 2017},
    {"ESLURM_INVALID_NODE_NAME", 2018},
    {"ESLURM_BAD_DIST", 2023},
    {"ESLURM_BAD_TASK_COUNT", 2025},
    {"ESLURM_INVALID_FEATURE", 2029},
    {"ESLURM_NOT_SUPPORTED", 2036},
    {"ESLURM_DISABLED", 2037},
    {"ESLURM_DEPENDENCY", 2038},
    {"ESLURM_BATCH_ONLY", 2039},
    {"ESLURM_LICENSES_UNAVAILABLE", 2040},
    {"ESLURM_JOB_HELD", 2042},
    {"ESLURM_INVALID_TASK_MEMORY", 2044},
    {"ESLURM_INVALID_ACCOUNT", 2045},
    {"ESLURM_INVALID_LICENSES", 2048},
    {"ESLURM_ACCOUNTING_POLICY", 2050},
    {"ESLURM_INVALID_TIME_LIMIT", 2051},
    {"ESLURM_RESERVATION_ACCESS", 2052},
    {"ESLURM_RESERVATION_INVALID", 2053},
    {"ESLURM_INVALID_TIME_VALUE", 2054},
    {"ESLURM_INVALID_WCKEY", 2057},
    {"ESLURM_MISSING_WORK_DIR", 2063},
    {"ESLURM_INVALID_QOS", 2066},
    {"ESLURM_NODE_NOT_AVAIL", 2068},
    {"ESLURM_INVALID_CPU_COUNT", 2069},
    {"ESLURM_PARTITION_NOT_AVAIL", 2070},
    {"ESLURM_CIRCULAR_DEPENDENCY", 2071},
    {"ESLURM_INVALID_GRES", 2072},
    {"ESLURM_JOB_NOT_PENDING", 2073},
    {"ESLURM_QOS_THRES", 2074},
    {"ESLURM_INVALID_ARRAY", 2081},
    {"ESLURM_INTERNAL", 2090},
    {"ESLURM_INVALID_BURST_BUFFER_REQUEST", 2094},
    {"ESLURM_PARTITION_DOWN", 2101},
    {"ESLURM_SUBMISSIONS_DISABLED", 2105},
    {"ESLURM_INVALID_TRES", 2115},
    {"ESLURM_INVALID_GRES_TYPE", 2119},
    {"ESLURM_INVALID_NICE", 2123},
    {"ESLURM_INVALID_TIME_MIN_LIMIT", 2124},
    {"ESLURM_PARTITION_ASSOC", 2130},
    {"ESLURM_MISSING_TIME_LIMIT", 8000},
};

// Constants for reading and setting job fields, with slurm.h's values. MAIL_JOB_TIME890 is the
// name Slurm's table gives MAIL_JOB_TIME90 (scripts written against it use that spelling).
constexpr IntConst kValues[] = {
    {"NO_VAL", kNoVal},
    {"NO_VAL16", 0xfffe},
    {"NO_VAL8", 0xfe},
    {"INFINITE", kInfinite},
    {"ALLOC_SID_ADMIN_HOLD", 0x1},
    {"ALLOC_SID_USER_HOLD", 0x2},
    {"MAIL_JOB_BEGIN", 0x1},
    {"MAIL_JOB_END", 0x2},
    {"MAIL_JOB_FAIL", 0x4},
    {"MAIL_JOB_REQUEUE", 0x8},
    {"MAIL_JOB_TIME100", 0x10},
    {"MAIL_JOB_TIME90", 0x20},
    {"MAIL_JOB_TIME890", 0x20},
    {"MAIL_JOB_TIME80", 0x40},
    {"MAIL_JOB_TIME50", 0x80},
    {"MAIL_JOB_STAGE_OUT", 0x100},
    {"MAIL_INVALID_DEPEND", 0x400},
    {"NICE_OFFSET", 0x80000000},
    {"JOB_SHARED_NONE", 0},
    {"JOB_SHARED_OK", 1},
    {"JOB_SHARED_USER", 2},
    {"JOB_SHARED_MCS", 3},
    {"SHARED_FORCE", 0x8000},
    // job_desc.bitflags
    {"KILL_INV_DEP", 1 << 0},
    {"NO_KILL_INV_DEP", 1 << 1},
    {"GRES_ENFORCE_BIND", 1 << 4},
    {"SPREAD_JOB", 1 << 8},
    {"USE_MIN_NODES", 1 << 9},
    {"GRES_DISABLE_BIND", 1 << 19},
};

// The 64-bit markers do not fit a Lua integer as unsigned values; Slurm hands them over as
// floats, and so do we, so that comparisons in existing scripts behave the same.
struct FloatConst {
    const char *name;
    double value;
};
constexpr FloatConst kWide[] = {
    {"NO_VAL64", static_cast<double>(0xfffffffffffffffeULL)},
    {"INFINITE64", static_cast<double>(0xffffffffffffffffULL)},
    {"MEM_PER_CPU", static_cast<double>(0x8000000000000000ULL)},
};

void set_constants(lua_State *L, const State &st) {
    for (const auto &c : kCodes) {
        lua_pushinteger(L, c.value);
        lua_setfield(L, -2, c.name);
    }
    for (const auto &c : kValues) {
        lua_pushinteger(L, c.value);
        lua_setfield(L, -2, c.name);
    }
    for (const auto &c : kWide) {
        lua_pushnumber(L, c.value);
        lua_setfield(L, -2, c.name);
    }
    lua_pushlstring(L, st.cluster_name.data(), st.cluster_name.size());
    lua_setfield(L, -2, "CLUSTER_NAME");
}

} // namespace

void push_slurm_table(lua_State *L, State *st) {
    lua_newtable(L);
    set_functions(L, st);
    set_constants(L, *st);
}

} // namespace drover::jslua
