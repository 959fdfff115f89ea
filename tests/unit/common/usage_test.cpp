// usage_test.cpp - StepUsageSummary: two nodes' figures merge into one step's.
#include <gtest/gtest.h>

#include "common/usage.hpp"

namespace drover {
namespace {

StepUsageSummary node(const std::string &name, uint32_t first_task, uint32_t tasks) {
    StepUsageSummary s;
    s.tasks = tasks;
    s.max_rss_node = s.max_vsize_node = s.min_cpu_node = name;
    s.max_disk_read_node = s.max_disk_write_node = name;
    s.max_rss_task = s.max_vsize_task = s.min_cpu_task = first_task;
    s.max_disk_read_task = s.max_disk_write_task = first_task;
    return s;
}

TEST(StepUsage, MaximaKeepTheirNodeAndTask) {
    StepUsageSummary a = node("n1", 0, 2), b = node("n2", 2, 2);
    a.max_rss = 100;
    b.max_rss = 300;
    b.max_rss_task = 3;
    a.max_vsize = 900;
    b.max_vsize = 500;
    a.max_disk_read = 7;
    b.max_disk_read = 7; // a tie keeps the first
    b.max_disk_read_task = 2;
    b.max_disk_write = 1;
    merge(a, b);
    EXPECT_EQ(a.max_rss, 300u);
    EXPECT_EQ(a.max_rss_node, "n2");
    EXPECT_EQ(a.max_rss_task, 3u);
    EXPECT_EQ(a.max_vsize, 900u);
    EXPECT_EQ(a.max_vsize_node, "n1");
    EXPECT_EQ(a.max_disk_read_node, "n1");
    EXPECT_EQ(a.max_disk_read_task, 0u);
    EXPECT_EQ(a.max_disk_write, 1u);
    EXPECT_EQ(a.max_disk_write_node, "n2");
}

TEST(StepUsage, MinimumCpuKeepsItsNodeAndTask) {
    StepUsageSummary a = node("n1", 0, 1), b = node("n2", 1, 1);
    a.min_cpu_usec = 5000;
    b.min_cpu_usec = 20;
    merge(a, b);
    EXPECT_EQ(a.min_cpu_usec, 20u);
    EXPECT_EQ(a.min_cpu_node, "n2");
    EXPECT_EQ(a.min_cpu_task, 1u);
}

TEST(StepUsage, AveragesAreWeightedByTasks) {
    StepUsageSummary a = node("n1", 0, 1), b = node("n2", 1, 3);
    a.ave_rss = 400;
    b.ave_rss = 800; // (400 * 1 + 800 * 3) / 4 = 700
    a.ave_vsize = 10;
    b.ave_vsize = 20; // 17.5 rounds to 18
    a.ave_cpu_usec = 1000000;
    b.ave_cpu_usec = 0;
    a.ave_disk_read = b.ave_disk_read = 64;
    a.ave_disk_write = 0;
    b.ave_disk_write = 4;
    merge(a, b);
    EXPECT_EQ(a.tasks, 4u);
    EXPECT_EQ(a.ave_rss, 700u);
    EXPECT_EQ(a.ave_vsize, 18u);
    EXPECT_EQ(a.ave_cpu_usec, 250000u);
    EXPECT_EQ(a.ave_disk_read, 64u);
    EXPECT_EQ(a.ave_disk_write, 3u);
}

TEST(StepUsage, TotalsAdd) {
    StepUsageSummary a = node("n1", 0, 1), b = node("n2", 1, 1);
    a.user_cpu_usec = 10;
    b.user_cpu_usec = 32;
    a.sys_cpu_usec = 1;
    b.sys_cpu_usec = 2;
    a.oom_kills = 1;
    b.oom_kills = 2;
    merge(a, b);
    EXPECT_EQ(a.user_cpu_usec, 42u);
    EXPECT_EQ(a.sys_cpu_usec, 3u);
    EXPECT_EQ(a.oom_kills, 3u);
}

TEST(StepUsage, AnEmptySummaryChangesNothingAndTakesEverything) {
    StepUsageSummary b = node("n2", 4, 2);
    b.max_rss = 1;
    b.ave_rss = 2;
    b.min_cpu_usec = 3;
    b.ave_cpu_usec = 4;
    StepUsageSummary into;
    merge(into, b);
    EXPECT_EQ(into, b);
    merge(into, StepUsageSummary{});
    EXPECT_EQ(into, b);
}

TEST(StepUsage, LargeFiguresDoNotOverflow) {
    StepUsageSummary a = node("n1", 0, 1000), b = node("n2", 1000, 3000);
    a.ave_rss = b.ave_rss = UINT64_MAX - 1;
    merge(a, b);
    EXPECT_EQ(a.ave_rss, UINT64_MAX - 1);
}

} // namespace
} // namespace drover
