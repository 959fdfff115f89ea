// privileges.hpp - the user a step's processes run as, and the one place the node drops to them.
//
// Policy, the same for batch scripts and steps (as Slurm's slurmstepd, which fails a launch whose
// initgroups fails): a process started for a user runs with that user's uid, primary gid and
// supplementary groups, or does not run at all. Running a task without its groups (the batch
// script used to fall back to no supplementary groups) would give it other rights than the user
// has: files shared through a group become unreadable, silently. The groups are looked up in the
// daemon before the fork (the name service is no business of a forked child of a threaded
// process), so the drop itself is three system calls.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace drover::noded {

struct RunAs {
    uint32_t uid = 0, gid = 0;
    std::string user;
    std::vector<unsigned> groups; // supplementary groups (the primary one among them)
};

// Whether a process running as euid must switch to the user: only root can, and only root must
// (a droverd run by a user for tests runs everything as that user).
bool must_drop(uid_t euid);

// The user's groups as the name service has them; the primary gid alone when it knows no more.
std::vector<unsigned> lookup_groups(const std::string &user, uint32_t gid);

// Groups looked up at most once a minute per user: a step's start should not wait on the name
// service each time.
class GroupCache {
  public:
    std::vector<unsigned> groups_of(const std::string &user, uint32_t gid, int64_t now);

  private:
    struct Entry {
        std::vector<unsigned> ids;
        int64_t when = 0;
    };
    std::map<std::string, Entry> cache_;
};

// In a forked child: becomes who (setgid, setgroups, setuid) when must_drop(geteuid()). Returns
// nullptr, or the name of the call that failed (the caller must not run anything then).
// Allocates nothing.
const char *drop_privileges(const RunAs &who);

} // namespace drover::noded
