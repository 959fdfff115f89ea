// job_desc.cpp - the job_desc proxy table (job_desc.hpp).
//
// The table itself stays empty, so every read reaches __index and every write __newindex. These
// functions run inside Lua calls, where errors unwind by longjmp: they hold no C++ object with a
// destructor.
#include "job_desc.hpp"

#include <lua.hpp>

namespace drover::jslua {

namespace {

// The DescRef of the call in progress (upvalue 1); a Lua error once that call has returned.
DescRef *live_ref(lua_State *L) {
    auto *r = static_cast<DescRef *>(lua_touserdata(L, lua_upvalueindex(1)));
    if (!r || !r->host || !r->desc)
        luaL_error(L, "job_desc used after slurm_job_submit/slurm_job_modify returned");
    return r;
}

// Pushes field name's value: nil when it is unset, unknown, or the host cannot read fields.
void push_field(lua_State *L, const DescRef &r, const char *name) {
    uint32_t kind = DROVER_FIELD_NIL;
    int64_t number = 0;
    drover_str text{nullptr, 0};
    bool ok = DROVER_HAS(drover_job_submit_host, r.host, get) && r.host->get &&
              r.host->get(r.desc, name, &kind, &number, &text) == DROVER_OK;
    if (ok && kind == DROVER_FIELD_NUMBER)
        lua_pushinteger(L, number);
    else if (ok && kind == DROVER_FIELD_STRING && text.ptr)
        lua_pushlstring(L, text.ptr, text.len);
    else
        lua_pushnil(L);
}

int set_number(const DescRef &r, const char *name, int64_t v) {
    if (!DROVER_HAS(drover_job_submit_host, r.host, set_number) || !r.host->set_number)
        return DROVER_EPERM;
    return r.host->set_number(r.desc, name, v);
}

int set_text(const DescRef &r, const char *name, const char *text) {
    if (!DROVER_HAS(drover_job_submit_host, r.host, set_text) || !r.host->set_text)
        return DROVER_EPERM;
    return r.host->set_text(r.desc, name, text);
}

// The value at idx (a number or numeric string) as an integer, truncated as Slurm's C
// assignment of a Lua number truncates; false when it is not a number or out of range.
bool to_int64(lua_State *L, int idx, int64_t *out) {
    int isnum = 0;
    lua_Integer i = lua_tointegerx(L, idx, &isnum);
    if (isnum) {
        *out = i;
        return true;
    }
    lua_Number d = lua_tonumberx(L, idx, &isnum);
    if (!isnum || !(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return false;
    *out = static_cast<int64_t>(d);
    return true;
}

// Sets field name to the value at index 3. The host says which kind a field holds only by
// refusing the other (DROVER_EINVAL), so each value tries its own kind first, then the other.
int assign(lua_State *L, const DescRef &r, const char *name) {
    int64_t v = 0;
    switch (lua_type(L, 3)) {
    case LUA_TNIL:
        return set_text(r, name, nullptr);
    case LUA_TNUMBER: {
        if (to_int64(L, 3, &v)) {
            int rc = set_number(r, name, v);
            if (rc != DROVER_EINVAL) return rc;
        }
        lua_pushvalue(L, 3); // a string field: the number's text (lua_tolstring converts a copy)
        int rc = set_text(r, name, lua_tostring(L, -1));
        lua_pop(L, 1);
        return rc;
    }
    case LUA_TSTRING: {
        size_t len = 0;
        const char *s = lua_tolstring(L, 3, &len);
        int rc = set_text(r, name, len ? s : nullptr); // Slurm: "" unsets a string field
        if (rc != DROVER_EINVAL) return rc;
        return to_int64(L, 3, &v) ? set_number(r, name, v) : DROVER_EINVAL;
    }
    default:
        return DROVER_EINVAL;
    }
}

int l_index(lua_State *L) {
    DescRef *r = live_ref(L);
    if (lua_type(L, 2) != LUA_TSTRING)
        lua_pushnil(L);
    else
        push_field(L, *r, lua_tostring(L, 2));
    return 1;
}

int l_newindex(lua_State *L) {
    DescRef *r = live_ref(L);
    if (lua_type(L, 2) != LUA_TSTRING)
        return luaL_error(L, "job_desc: field names are strings, not %s", luaL_typename(L, 2));
    const char *name = lua_tostring(L, 2);
    int rc = assign(L, *r, name);
    if (rc == DROVER_OK) return 0;
    if (rc == DROVER_ENOENT) {
        // As Slurm's: a field this controller does not have is logged and left alone, so that a
        // site's script that sets one (mail_user, wckey, ...) does not refuse every job.
        lua_getglobal(L, "slurm");
        if (lua_istable(L, -1) && lua_getfield(L, -1, "log_error") == LUA_TFUNCTION) {
            lua_pushstring(L, "%s");
            lua_pushfstring(L, "job_desc.%s: no such field here; not set", name);
            if (lua_pcall(L, 2, 0, 0) != LUA_OK) lua_pop(L, 1);
        } else {
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        return 0;
    }
    if (rc == DROVER_EPERM) return luaL_error(L, "job_desc.%s: read-only field", name);
    if (rc != DROVER_EINVAL)
        return luaL_error(L, "job_desc.%s: the controller refused the value (error %d)", name, rc);
    switch (lua_type(L, 3)) {
    case LUA_TNIL:
        return luaL_error(L, "job_desc.%s: nil cannot unset this field", name);
    case LUA_TSTRING:
        return luaL_error(L, "job_desc.%s: \"%s\" is not a value this field takes", name,
                          lua_tostring(L, 3));
    case LUA_TNUMBER:
        return luaL_error(L, "job_desc.%s: %s is not a value this field takes", name,
                          luaL_tolstring(L, 3, nullptr));
    default:
        return luaL_error(L, "job_desc.%s: a %s is not a value this field takes", name,
                          luaL_typename(L, 3));
    }
}

// The iterator pairs(job_desc) returns: upvalue 1 the DescRef, upvalue 2 the next field index.
int l_next(lua_State *L) {
    DescRef *r = live_ref(L);
    const drover_job_submit_host *h = r->host;
    bool listable =
        DROVER_HAS(drover_job_submit_host, h, field_name) && h->field_count && h->field_name;
    uint32_t n = listable ? h->field_count() : 0;
    for (auto i = static_cast<uint32_t>(lua_tointeger(L, lua_upvalueindex(2))); i < n; ++i) {
        const char *name = h->field_name(i);
        if (!name) continue;
        push_field(L, *r, name);
        if (lua_isnil(L, -1)) { // unset fields are skipped, as pairs() skips nil entries
            lua_pop(L, 1);
            continue;
        }
        lua_pushinteger(L, i + 1);
        lua_replace(L, lua_upvalueindex(2));
        lua_pushstring(L, name);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushnil(L);
    return 1;
}

int l_pairs(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, l_next, 2);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

} // namespace

DescRef *push_desc_ref(lua_State *L, const drover_job_submit_host *host, drover_job_desc *desc) {
    auto *r = static_cast<DescRef *>(lua_newuserdatauv(L, sizeof(DescRef), 0));
    r->host = host;
    r->desc = desc;
    return r;
}

void push_job_desc(lua_State *L, int ref_index) {
    static const luaL_Reg kMeta[] = {
        {"__index", l_index}, {"__newindex", l_newindex}, {"__pairs", l_pairs}, {nullptr, nullptr}};
    ref_index = lua_absindex(L, ref_index);
    lua_newtable(L);
    lua_createtable(L, 0, 3);
    lua_pushvalue(L, ref_index); // the upvalue each metamethod shares
    luaL_setfuncs(L, kMeta, 1);
    lua_setmetatable(L, -2);
}

} // namespace drover::jslua
