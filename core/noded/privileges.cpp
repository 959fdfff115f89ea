// privileges.cpp - group lookup before the fork, setgid/setgroups/setuid after it.
#include "noded/privileges.hpp"

#include <grp.h>
#include <unistd.h>

#include <algorithm>

namespace drover::noded {

bool must_drop(uid_t euid) {
    return euid == 0;
}

std::vector<unsigned> lookup_groups(const std::string &user, uint32_t gid) {
    int n = 64;
    std::vector<gid_t> ids(static_cast<std::size_t>(n));
    if (::getgrouplist(user.c_str(), gid, ids.data(), &n) < 0) {
        ids.resize(std::size_t(n));
        if (::getgrouplist(user.c_str(), gid, ids.data(), &n) < 0) n = 0;
    }
    ids.resize(std::size_t(std::max(n, 0)));
    if (ids.empty()) ids.push_back(gid);
    return {ids.begin(), ids.end()};
}

std::vector<unsigned> GroupCache::groups_of(const std::string &user, uint32_t gid, int64_t now) {
    Entry &e = cache_[user];
    if (e.when && now - e.when < 60) return e.ids;
    e.ids = lookup_groups(user, gid);
    e.when = now;
    return e.ids;
}

const char *drop_privileges(const RunAs &who) {
    if (!must_drop(::geteuid())) return nullptr;
    // A fixed array: nothing is allocated in a forked child.
    gid_t groups[1024];
    std::size_t n = std::min(who.groups.size(), std::size(groups));
    std::copy_n(who.groups.begin(), n, groups);
    if (::setgid(who.gid) != 0) return "setgid";
    if (::setgroups(n, groups) != 0) return "setgroups";
    if (::setuid(who.uid) != 0) return "setuid";
    return nullptr;
}

} // namespace drover::noded
