// proctrack_pgid_test.cpp - proctrack/pgid tracks and signals a real process group.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace drover::plugin::test {
namespace {

class PluginProctrackPgid : public ::testing::Test {
  protected:
    void SetUp() override {
        // Orphaned grandchildren come back to this process, so the test can reap them.
        ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
        set_.load("proctrack/pgid");
    }
    void TearDown() override { ::prctl(PR_SET_CHILD_SUBREAPER, 0); }

    const drover_proctrack_ops &ops() const { return set_.proctrack().ops; }
    void *state() const { return set_.proctrack().state; }

    std::vector<int32_t> pids(drover_cont_id cont) {
        drover_error err{};
        int rc = 0;
        auto out = container_pids(set_.proctrack(), cont, &rc, &err);
        EXPECT_EQ(rc, DROVER_OK) << err.text;
        return out;
    }

    Config conf_ = real_plugin_config();
    PluginSet set_{conf_, "noded"};
};

// Forks a session leader that forks a grandchild; both sleep. Returns {leader, grandchild}.
std::pair<pid_t, pid_t> spawn_group() {
    int fds[2];
    if (::pipe(fds) != 0) return {-1, -1};
    pid_t leader = ::fork();
    if (leader == 0) {
        ::setsid();
        pid_t grandchild = ::fork();
        if (grandchild == 0) {
            ::pause();
            ::_exit(0);
        }
        (void)!::write(fds[1], &grandchild, sizeof grandchild);
        ::pause();
        ::_exit(0);
    }
    pid_t grandchild = -1;
    ::close(fds[1]);
    (void)!::read(fds[0], &grandchild, sizeof grandchild);
    ::close(fds[0]);
    // Wait until the leader has called setsid (its group is its own pid).
    for (int i = 0; i < 200 && ::getpgid(leader) != leader; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return {leader, grandchild};
}

bool reaped(pid_t pid) {
    for (int i = 0; i < 400; ++i) {
        int status;
        if (::waitpid(pid, &status, WNOHANG) == pid)
            return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
}

TEST_F(PluginProctrackPgid, SignalsEveryProcessOfTheGroup) {
    auto [leader, grandchild] = spawn_group();
    ASSERT_GT(leader, 0);
    ASSERT_GT(grandchild, 0);
    drover_error err{};
    drover_cont_id cont = 0;
    ASSERT_EQ(ops().cont_create(state(), 7, DROVER_STEP_BATCH, leader, &cont, &err), DROVER_OK)
        << err.text;
    EXPECT_EQ(cont, static_cast<drover_cont_id>(leader));
    EXPECT_EQ(pids(cont),
              (std::vector<int32_t>{std::min(leader, grandchild), std::max(leader, grandchild)}));

    ASSERT_EQ(ops().cont_signal(state(), cont, SIGKILL, &err), DROVER_OK) << err.text;
    EXPECT_TRUE(reaped(leader));
    EXPECT_TRUE(reaped(grandchild));
    EXPECT_TRUE(pids(cont).empty());
    EXPECT_EQ(ops().cont_signal(state(), cont, SIGTERM, &err), DROVER_ENOENT);
    EXPECT_EQ(ops().cont_destroy(state(), cont, &err), DROVER_OK);
}

TEST_F(PluginProctrackPgid, RefusesAProcessThatLeadsNoGroup) {
    pid_t child = ::fork();
    if (child == 0) {
        ::pause();
        ::_exit(0);
    }
    drover_error err{};
    drover_cont_id cont = 0;
    EXPECT_EQ(ops().cont_create(state(), 7, 0, child, &cont, &err), DROVER_EINVAL);
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    EXPECT_EQ(ops().cont_create(state(), 7, 0, child, &cont, &err), DROVER_ENOENT);
}

TEST_F(PluginProctrackPgid, WaitsForTheFirstProcessToCallSetsid) {
    pid_t child = ::fork();
    if (child == 0) {
        ::usleep(50 * 1000); // as a busy node daemon's child might be late
        ::setsid();
        ::pause();
        ::_exit(0);
    }
    drover_error err{};
    drover_cont_id cont = 0;
    EXPECT_EQ(ops().cont_create(state(), 7, 0, child, &cont, &err), DROVER_OK) << err.text;
    EXPECT_EQ(cont, static_cast<drover_cont_id>(child));
    EXPECT_EQ(ops().cont_signal(state(), cont, SIGKILL, &err), DROVER_OK);
    EXPECT_TRUE(reaped(child));
}

TEST_F(PluginProctrackPgid, NeverSignalsEveryone) {
    drover_error err{};
    EXPECT_EQ(ops().cont_signal(state(), 0, 0, &err), DROVER_EINVAL);
    EXPECT_EQ(ops().cont_signal(state(), 1, 0, &err), DROVER_EINVAL);
}

} // namespace
} // namespace drover::plugin::test
