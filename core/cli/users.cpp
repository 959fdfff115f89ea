// users.cpp - cached getpwuid/getgrgid/getpwnam look-ups.
#include "cli/users.hpp"

#include <grp.h>
#include <pwd.h>

#include <unordered_map>

#include "cli/text.hpp"

namespace drover::cli {

namespace {

using NameCache = std::unordered_map<uint32_t, std::string>;

// The name look_up gives for id, or the number when it gives none; remembered in cache. The
// caches are function-local statics: built on first use, so commands that never look up a name
// pay nothing.
std::string cached_name(NameCache &cache, uint32_t id, const char *(*look_up)(uint32_t)) {
    auto it = cache.find(id);
    if (it != cache.end()) return it->second;
    const char *found = look_up(id);
    std::string name = found ? found : str_u(id);
    cache.emplace(id, name);
    return name;
}

const char *passwd_name(uint32_t uid) {
    struct passwd *pw = ::getpwuid(static_cast<uid_t>(uid));
    return pw ? pw->pw_name : nullptr;
}

const char *group_entry_name(uint32_t gid) {
    struct group *gr = ::getgrgid(static_cast<gid_t>(gid));
    return gr ? gr->gr_name : nullptr;
}

} // namespace

std::string user_name(uint32_t uid) {
    static NameCache cache;
    return cached_name(cache, uid, passwd_name);
}

std::string group_name(uint32_t gid) {
    static NameCache cache;
    return cached_name(cache, gid, group_entry_name);
}

std::optional<uint32_t> lookup_user(std::string_view name_or_uid) {
    if (name_or_uid.empty()) return std::nullopt;
    std::string name(name_or_uid);
    if (struct passwd *pw = ::getpwnam(name.c_str())) return static_cast<uint32_t>(pw->pw_uid);
    if (auto n = parse_u32(name_or_uid)) return n;
    return std::nullopt;
}

} // namespace drover::cli
