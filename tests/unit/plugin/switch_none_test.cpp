// switch_none_test.cpp - switch/none loads and accepts every job without touching its environment.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace drover::plugin::test {
namespace {

TEST(PluginSwitchNone, JobInitAndFiniSucceedAndAddNothing) {
    Config conf = real_plugin_config();
    PluginSet set(conf, "noded");
    set.load("switch/none");
    const auto &b = set.switch_();
    int added = 0;
    auto env_add = [](void *arg, drover_str, drover_str) { ++*static_cast<int *>(arg); };
    const std::string nodes = "n[1-4]";
    drover_error err{};
    EXPECT_EQ(b.ops.job_init(b.state, 42, str(nodes), env_add, &added, &err), DROVER_OK);
    EXPECT_EQ(b.ops.job_fini(b.state, 42, &err), DROVER_OK);
    EXPECT_EQ(added, 0);
}

} // namespace
} // namespace drover::plugin::test
