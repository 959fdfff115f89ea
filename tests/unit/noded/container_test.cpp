// container_test.cpp - the proctrack wrapper (noded/container.hpp) over a fake ops table of local
// functions: what each call passes to the plugin, and what a missing or failing operation gives.
#include <csignal>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "noded/container.hpp"

namespace drover::noded {
namespace {

// What the fake plugin saw, and what it answers.
struct Fake {
    int create_rc = DROVER_OK, limit_rc = DROVER_OK, signal_rc = DROVER_OK;
    std::vector<int> signals;
    std::vector<std::string> calls;
    uint64_t mem_bytes = 0;
    std::string cpus, deny_devices;
    bool destroyed = false;
};
Fake fake;

void say(drover_error *err, const char *text) {
    std::strncpy(err->text, text, sizeof err->text - 1);
}
int f_create(void *, uint32_t job, uint32_t step, int32_t pid, drover_cont_id *out,
             drover_error *err) {
    fake.calls.push_back("create");
    if (fake.create_rc != DROVER_OK) return say(err, "no cgroup"), fake.create_rc;
    *out = (uint64_t(job) << 32) | step;
    return DROVER_OK;
}
int f_limit(void *, drover_cont_id, const drover_cont_limits *l, drover_error *err) {
    fake.calls.push_back("limit");
    fake.mem_bytes = l->mem_bytes;
    fake.cpus.assign(l->cpus.ptr, l->cpus.len);
    fake.deny_devices.assign(l->deny_devices.ptr, l->deny_devices.len);
    if (fake.limit_rc != DROVER_OK) say(err, "no memory controller");
    return fake.limit_rc;
}
int f_signal(void *, drover_cont_id, int sig, drover_error *) {
    fake.calls.push_back("signal");
    fake.signals.push_back(sig);
    return fake.signal_rc;
}
int f_pids(void *, drover_cont_id, int32_t *pids, uint32_t *count, drover_error *) {
    int32_t mine[] = {11, 12, 13};
    *count = std::min<uint32_t>(*count, 3);
    std::memcpy(pids, mine, *count * sizeof(int32_t));
    return DROVER_OK;
}
int f_destroy(void *, drover_cont_id, drover_error *) {
    fake.calls.push_back("destroy");
    fake.destroyed = true;
    return DROVER_OK;
}
int f_usage(void *, drover_cont_id, drover_cont_usage *u, drover_error *) {
    u->max_mem_bytes = 42;
    u->oom_kills = 2;
    return DROVER_OK;
}

plugin::Bound<drover_proctrack_ops> full_plugin() {
    plugin::Bound<drover_proctrack_ops> pt;
    pt.id = "proctrack/fake";
    pt.ops.struct_size = sizeof pt.ops;
    pt.ops.cont_create = f_create;
    pt.ops.cont_signal = f_signal;
    pt.ops.cont_pids = f_pids;
    pt.ops.cont_destroy = f_destroy;
    pt.ops.cont_limit = f_limit;
    pt.ops.cont_usage = f_usage;
    return pt;
}

class ContainersTest : public ::testing::Test {
  protected:
    void SetUp() override { fake = Fake{}; }
};

TEST_F(ContainersTest, CreatesAndLimitsTheStep) {
    auto pt = full_plugin();
    Containers c(pt);
    drover_cont_id id = 0;
    EXPECT_TRUE(c.create(7, 1, 100, {512, "0-1", "/dev/nvidia1,/dev/nvidia3"}, "7.1", &id).ok());
    EXPECT_EQ(id, (uint64_t(7) << 32) | 1);
    EXPECT_EQ(fake.calls, (std::vector<std::string>{"create", "limit"}));
    EXPECT_EQ(fake.mem_bytes, 512ull << 20);
    EXPECT_EQ(fake.cpus, "0-1");
    EXPECT_EQ(fake.deny_devices, "/dev/nvidia1,/dev/nvidia3");
}

TEST_F(ContainersTest, AFailedCreateSaysWhy) {
    auto pt = full_plugin();
    fake.create_rc = DROVER_EIO;
    drover_cont_id id = 0;
    Status s = Containers(pt).create(7, 1, 100, {}, "7.1", &id);
    EXPECT_EQ(s.code(), DROVER_EIO);
    EXPECT_EQ(s.text(), "proctrack: no cgroup");
    EXPECT_EQ(fake.calls, std::vector<std::string>{"create"});
}

TEST_F(ContainersTest, ARefusedOrMissingLimitStillRunsTheStep) {
    auto pt = full_plugin();
    fake.limit_rc = DROVER_EINVAL;
    drover_cont_id id = 0;
    EXPECT_TRUE(Containers(pt).create(7, 1, 100, {512, ""}, "7.1", &id).ok());
    pt.ops.cont_limit = nullptr;
    EXPECT_TRUE(Containers(pt).create(7, 2, 101, {512, ""}, "7.2", &id).ok());
}

TEST_F(ContainersTest, SignalsPidsAndUsage) {
    auto pt = full_plugin();
    Containers c(pt);
    EXPECT_TRUE(c.signal(1, SIGTERM));
    fake.signal_rc = DROVER_ENOENT;
    EXPECT_FALSE(c.signal(1, SIGTERM));
    EXPECT_EQ(c.pids(1), (std::vector<int32_t>{11, 12, 13}));
    auto u = c.usage(1);
    ASSERT_TRUE(u.has_value());
    EXPECT_EQ(u->struct_size, sizeof(drover_cont_usage));
    EXPECT_EQ(u->max_mem_bytes, 42u);
    EXPECT_EQ(u->oom_kills, 2u);
}

TEST_F(ContainersTest, DestroyKillsWhatIsLeftFirst) {
    auto pt = full_plugin();
    Containers(pt).destroy(1);
    EXPECT_EQ(fake.calls, (std::vector<std::string>{"signal", "destroy"}));
    EXPECT_EQ(fake.signals, std::vector<int>{SIGKILL});
}

// A plugin of ABI 1.2 has neither cont_limit nor cont_usage; a broken one may lack more.
TEST_F(ContainersTest, MissingOperationsAreNotCalled) {
    plugin::Bound<drover_proctrack_ops> pt;
    Containers c(pt);
    drover_cont_id id = 0;
    EXPECT_FALSE(c.create(7, 1, 100, {}, "7.1", &id).ok());
    EXPECT_FALSE(c.signal(1, SIGKILL));
    EXPECT_TRUE(c.pids(1).empty());
    EXPECT_FALSE(c.usage(1).has_value());
    c.destroy(1);
    EXPECT_TRUE(fake.calls.empty());
}

} // namespace
} // namespace drover::noded
