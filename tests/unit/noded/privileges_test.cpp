// privileges_test.cpp - the one privilege drop (noded/privileges.hpp): who must drop, the groups
// looked up, and a drop that fails stopping the process rather than running it half-switched.
#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include <gtest/gtest.h>

#include "noded/privileges.hpp"

namespace drover::noded {
namespace {

constexpr uint32_t kNobody = 65534;

// Runs body in a forked child; its exit status.
template <class F>
int in_child(F body) {
    pid_t pid = ::fork();
    if (pid == 0) ::_exit(body());
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

TEST(Privileges, OnlyRootDrops) {
    EXPECT_TRUE(must_drop(0));
    EXPECT_FALSE(must_drop(1000));
}

TEST(Privileges, GroupsHoldThePrimaryOne) {
    auto root = lookup_groups("root", 0);
    EXPECT_NE(std::find(root.begin(), root.end(), 0u), root.end());
    // A user the name service does not know keeps its primary group alone.
    EXPECT_EQ(lookup_groups("no-such-user-drover", 4321), std::vector<unsigned>{4321});
}

TEST(Privileges, GroupCacheAnswersTheSameWithinAMinute) {
    GroupCache cache;
    auto first = cache.groups_of("root", 0, 1000);
    EXPECT_EQ(cache.groups_of("root", 0, 1030), first);
    EXPECT_EQ(cache.groups_of("root", 0, 1100), first);
}

TEST(Privileges, DropsToUserWithItsGroups) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    RunAs who{kNobody, kNobody, "nobody", {kNobody, 4321}};
    int rc = in_child([&] {
        if (drop_privileges(who)) return 1;
        gid_t groups[8];
        int n = ::getgroups(8, groups);
        if (::getuid() != kNobody || ::geteuid() != kNobody || ::getgid() != kNobody) return 2;
        // (The kernel keeps the list sorted.)
        if (n != 2 || groups[0] != 4321 || groups[1] != kNobody) return 3;
        return 0;
    });
    EXPECT_EQ(rc, 0);
}

// The policy: a drop that cannot be made whole is an error the caller stops on (and the process
// keeps neither the user's identity half-made nor runs anything).
TEST(Privileges, AFailedDropIsReported) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    RunAs bad{kNobody, uint32_t(-1), "nobody", {kNobody}}; // setgid(-1) is EINVAL
    int rc = in_child([&] {
        const char *call = drop_privileges(bad);
        if (!call || std::string(call) != "setgid") return 1;
        return ::getuid() == 0 ? 0 : 2; // nothing switched
    });
    EXPECT_EQ(rc, 0);
}

} // namespace
} // namespace drover::noded
