// cpu_bind_test.cpp - --cpu-bind parsed as Slurm parses it, and each task's CPUs as Slurm's
// task/affinity lays them out (the examples of Slurm's CPU management guide: a node of two
// sockets of four cores, -m's default block:cyclic).
#include <gtest/gtest.h>

#include "common/cpu_bind.hpp"
#include "common/error.hpp"

using namespace drover;
using Sets = std::vector<std::vector<uint32_t>>;

namespace {
Sets bound(const std::string &bind, uint32_t tasks, uint32_t cpt = 1, const std::string &dist = "",
           std::vector<CpuPlace> node = uniform_topology(2, 4, 1),
           std::vector<uint32_t> step = {}) {
    return task_cpus(parse_cpu_bind(bind), {node, step, tasks, cpt, dist});
}
} // namespace

TEST(CpuBind, ParsesSlurmsSyntax) {
    CpuBind b = parse_cpu_bind("verbose,map_cpu:1,0x3,cores");
    EXPECT_TRUE(b.verbose);
    EXPECT_EQ(b.kind, CpuBind::map_cpu);
    EXPECT_EQ(b.level, CpuBind::cores);
    EXPECT_EQ(b.lists, (Sets{{1}, {3}}));
    EXPECT_EQ(parse_cpu_bind("mask_cpu:0x3*2,c").lists, (Sets{{0, 1}, {0, 1}, {2, 3}}));
    EXPECT_EQ(parse_cpu_bind("v,q,none").kind, CpuBind::none);
    EXPECT_FALSE(parse_cpu_bind("v,q,none").verbose);
    try {
        parse_cpu_bind("numa");
        ADD_FAILURE();
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "unrecognized --cpu-bind argument \"numa\"");
    }
    EXPECT_THROW(parse_cpu_bind("map_cpu"), ParseError);
    EXPECT_THROW(parse_cpu_bind("map_cpu:1,x2"), ParseError);
    EXPECT_THROW(parse_cpu_bind("map_cpu:99999999"), ParseError);
    EXPECT_THROW(parse_cpu_bind("map_cpu:0*0"), ParseError); // no list at all
    EXPECT_THROW(parse_cpu_bind("mask_ldom:0x1*0"), ParseError);
}

TEST(CpuBind, CoresFollowTheDistributionAcrossSockets) {
    // block:cyclic (the default): each task from the next socket.
    EXPECT_EQ(bound("cores", 4), (Sets{{0}, {4}, {1}, {5}}));
    // block:block: a socket filled first.
    EXPECT_EQ(bound("cores", 4, 1, "block"), (Sets{{0}, {1}, {2}, {3}}));
    // Two CPUs a task stay on one socket; fcyclic takes each from the next socket.
    EXPECT_EQ(bound("cores", 2, 2), (Sets{{0, 1}, {4, 5}}));
    EXPECT_EQ(bound("cores", 2, 2, "fcyclic"), (Sets{{0, 4}, {1, 5}}));
}

TEST(CpuBind, SocketsThreadsAndTheStepsOwnCpus) {
    EXPECT_EQ(bound("sockets", 3), (Sets{{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 2, 3}}));
    // One socket of two cores of two threads: cores bind both threads, threads one each.
    auto smt = uniform_topology(1, 2, 2);
    EXPECT_EQ(bound("cores", 2, 1, "", smt), (Sets{{0, 1}, {2, 3}}));
    EXPECT_EQ(bound("threads", 2, 1, "", smt), (Sets{{0}, {1}}));
    // Only the step's CPUs are dealt; more tasks than cores wrap round.
    EXPECT_EQ(bound("cores", 3, 1, "", uniform_topology(2, 4, 1), {2, 3, 6}),
              (Sets{{2}, {6}, {3}}));
    EXPECT_EQ(bound("cores", 3, 1, "", uniform_topology(1, 2, 1)), (Sets{{0}, {1}, {0}}));
}

TEST(CpuBind, ThreadsPerCoreAndTasksPerSocket) {
    // --threads-per-core=1 (--hint=nomultithread): the first thread of each core only.
    BindLayout smt{uniform_topology(1, 2, 2), {}, 2, 1, "", 1, 0};
    EXPECT_EQ(task_cpus(parse_cpu_bind("threads"), smt), (Sets{{0}, {2}}));
    smt.cpus_per_task = 2; // two CPUs a task: two cores' first threads
    smt.tasks = 1;
    EXPECT_EQ(task_cpus(parse_cpu_bind("threads"), smt), (Sets{{0, 2}}));
    // --ntasks-per-socket=2 with -m block:block: the third task goes to the next socket.
    BindLayout two{uniform_topology(2, 4, 1), {}, 4, 1, "block", 0, 2};
    EXPECT_EQ(task_cpus(parse_cpu_bind("cores"), two), (Sets{{0}, {1}, {4}, {5}}));
}

TEST(CpuBind, ExplicitMapsMasksRanksAndDomains) {
    EXPECT_EQ(bound("map_cpu:7,2", 3), (Sets{{7}, {2}, {7}}));
    EXPECT_EQ(bound("mask_cpu:0x11,0x6", 2), (Sets{{0, 4}, {1, 2}}));
    EXPECT_EQ(bound("rank", 3, 1, "", uniform_topology(1, 2, 1)), (Sets{{0}, {1}, {0}}));
    EXPECT_EQ(bound("rank_ldom", 2), (Sets{{0, 1, 2, 3}, {4, 5, 6, 7}}));
    EXPECT_EQ(bound("map_ldom:1", 1), (Sets{{4, 5, 6, 7}}));
    EXPECT_EQ(bound("none", 2), (Sets{{}, {}}));
    EXPECT_THROW(bound("map_cpu:9", 1), ParseError); // no such CPU on the node
    // -c beyond what the step has here takes what there is.
    EXPECT_EQ(bound("cores", 1, 4000000000u), (Sets{{0, 1, 2, 3, 4, 5, 6, 7}}));
}

TEST(CpuBind, VerboseLineAndMasks) {
    EXPECT_EQ(cpu_mask_hex({0}), "0x1");
    EXPECT_EQ(cpu_mask_hex({4, 5, 6, 7}), "0xf0");
    EXPECT_EQ(cpu_mask_hex({0, 9}), "0x201");
    EXPECT_EQ(cpu_bind_verbose_line(parse_cpu_bind("v,cores"), "n1", 3, 1, 4242, {1}),
              "cpu-bind-cores=MASK - n1, task  3  1 [4242]: mask 0x2 set");
    EXPECT_EQ(cpu_bind_verbose_line(parse_cpu_bind("v,map_cpu:1"), "n1", 0, 0, 7, {1}),
              "cpu-bind=MAP - n1, task  0  0 [7]: mask 0x2 set");
}
