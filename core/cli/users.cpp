// users.cpp - cached getpwuid/getgrgid/getpwnam look-ups.
#include "cli/users.hpp"

#include <grp.h>
#include <pwd.h>

#include <unordered_map>

#include "cli/text.hpp"

namespace drover::cli {

namespace {
// Function-local statics: built on first use, so commands that never look up a name pay nothing.
std::unordered_map<uint32_t, std::string> &user_cache() {
    static std::unordered_map<uint32_t, std::string> m;
    return m;
}
std::unordered_map<uint32_t, std::string> &group_cache() {
    static std::unordered_map<uint32_t, std::string> m;
    return m;
}
}  // namespace

std::string user_name(uint32_t uid) {
    auto &c = user_cache();
    auto it = c.find(uid);
    if (it != c.end()) return it->second;
    std::string name;
    if (struct passwd *pw = ::getpwuid(static_cast<uid_t>(uid)); pw && pw->pw_name)
        name = pw->pw_name;
    else
        name = str_u(uid);
    c.emplace(uid, name);
    return name;
}

std::string group_name(uint32_t gid) {
    auto &c = group_cache();
    auto it = c.find(gid);
    if (it != c.end()) return it->second;
    std::string name;
    if (struct group *gr = ::getgrgid(static_cast<gid_t>(gid)); gr && gr->gr_name)
        name = gr->gr_name;
    else
        name = str_u(gid);
    c.emplace(gid, name);
    return name;
}

std::optional<uint32_t> lookup_user(std::string_view name_or_uid) {
    if (name_or_uid.empty()) return std::nullopt;
    std::string name(name_or_uid);
    if (struct passwd *pw = ::getpwnam(name.c_str())) return static_cast<uint32_t>(pw->pw_uid);
    if (auto n = parse_u32(name_or_uid)) return n;
    return std::nullopt;
}

}  // namespace drover::cli
