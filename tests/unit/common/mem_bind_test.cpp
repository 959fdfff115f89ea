// mem_bind_test.cpp - srun's --mem-bind as Slurm's man page gives it, and the NUMA nodes each
// task's memory comes from.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/mem_bind.hpp"

using namespace drover;

namespace {
// Two sockets of two single-thread cores, each socket its own NUMA node (0 and 1).
std::vector<CpuPlace> two_numa() {
    auto node = uniform_topology(2, 2, 1);
    for (auto &p : node) p.numa = p.socket;
    return node;
}
} // namespace

TEST(MemBind, Parsing) {
    MemBind b = parse_mem_bind("verbose,local");
    EXPECT_EQ(b.kind, MemBind::local);
    EXPECT_TRUE(b.verbose);
    b = parse_mem_bind("p,map_mem:1,0");
    EXPECT_EQ(b.kind, MemBind::map_mem);
    EXPECT_TRUE(b.prefer);
    EXPECT_EQ(b.lists, (std::vector<std::vector<uint32_t>>{{1}, {0}}));
    b = parse_mem_bind("mask_mem:0x3*2,sort");
    EXPECT_EQ(b.kind, MemBind::mask_mem);
    EXPECT_EQ(b.lists, (std::vector<std::vector<uint32_t>>{{0, 1}, {0, 1}}));
    EXPECT_EQ(parse_mem_bind("none").kind, MemBind::none);
    EXPECT_EQ(parse_mem_bind("rank,q").kind, MemBind::rank);
}

TEST(MemBind, RefusalsInSlurmsWords) {
    auto err = [](const char *v) {
        try {
            parse_mem_bind(v);
        } catch (const ParseError &e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    EXPECT_EQ(err("closest"), "unrecognized --mem-bind argument \"closest\"");
    EXPECT_EQ(err("map_mem"), "missing list for \"--mem-bind=map_mem:<list>\"");
    EXPECT_EQ(err("map_mem:x"), "missing list for \"--mem-bind=map_mem:<list>\"");
}

TEST(MemBind, EachTasksNodes) {
    auto node = two_numa();
    // local: the NUMA nodes of the task's CPUs (CPUs 0-1 on node 0, 2-3 on node 1).
    EXPECT_EQ(task_mems(parse_mem_bind("local"), node, {{0}, {2, 3}, {1, 2}, {}}),
              (std::vector<std::vector<uint32_t>>{{0}, {1}, {0, 1}, {}}));
    EXPECT_EQ(task_mems(parse_mem_bind("rank"), node, {{}, {}, {}}),
              (std::vector<std::vector<uint32_t>>{{0}, {1}, {0}}));
    EXPECT_EQ(task_mems(parse_mem_bind("map_mem:1"), node, {{}, {}}),
              (std::vector<std::vector<uint32_t>>{{1}, {1}}));
    EXPECT_EQ(task_mems(parse_mem_bind("none"), node, {{0}}),
              (std::vector<std::vector<uint32_t>>{{}}));
    EXPECT_THROW(task_mems(parse_mem_bind("map_mem:2"), node, {{}}), ParseError);
}

TEST(MemBind, VerboseLine) {
    EXPECT_EQ(mem_bind_verbose_line(parse_mem_bind("v,map_mem:1"), "n1", 3, 1, 4242, {1}),
              "mem-bind=MAP - n1, task  3  1 [4242]: mask 0x2 set");
    EXPECT_EQ(mem_bind_verbose_line(parse_mem_bind("v,prefer,local"), "n1", 0, 0, 7, {0}),
              "mem-bind PREFER LOC - n1, task  0  0 [7]: mask 0x1 set");
    EXPECT_EQ(mem_bind_verbose_line(parse_mem_bind("v"), "n1", 0, 0, 7, {}),
              "mem-bind=NULL - n1, task  0  0 [7]: mask 0x0");
}
