// shepherd_codec_test.cpp - a shepherd's spec survives its trip through bytes (the exec of
// `droverd --shepherd FD`), and bytes that are no spec are refused, not half read.
#include <gtest/gtest.h>

#include "noded/shepherd_codec.hpp"

namespace drover::noded {
namespace {

ShepherdSpec full_spec() {
    ShepherdSpec s;
    s.job_id = 42;
    s.step_id = 3;
    s.user = {1001, 1002, "alice", {1002, 27}};
    s.work_dir = "/home/alice";
    s.argv = {"./a.out", "--flag", ""};
    s.env = {"PATH=/usr/bin", "EMPTY="};
    s.open_append = true;
    s.status_fd = 9;
    s.record_fd = 10;
    s.drain_fds = {11, 12};
    s.prolog = "/etc/prolog";
    s.job_node_list = "n[1-2]";
    s.node = "n1";
    s.pty_fd = 13;
    s.batch = true;
    s.cpu_bind.kind = CpuBind::mask_cpu;
    s.cpu_bind.level = CpuBind::cores;
    s.cpu_bind.verbose = true;
    s.cpu_bind.lists = {{0, 1}, {2}};
    s.mem_bind.kind = MemBind::map_mem;
    s.mem_bind.prefer = true;
    s.mem_bind.lists = {{1}};
    s.task_scripts.prologs = {"/p1", "/p2"};
    s.task_scripts.epilogs = {"/e1"};
    ShepherdTask t;
    t.task_id = 5;
    t.local_id = 1;
    t.in_fd = 14;
    t.out_path = "/tmp/out %j";
    t.err_fd = -1;
    t.argv = {"hostname"};
    t.env = {"SLURM_PROCID=5"};
    t.note = "a note\n";
    t.pmi_fd = 15;
    t.cpus = {3, 4};
    t.mems = {0};
    s.tasks = {t, ShepherdTask{}};
    return s;
}

TEST(ShepherdCodecTest, EveryFieldComesBack) {
    ShepherdSpec in = full_spec();
    ShepherdSpec out = decode_shepherd_spec(encode_shepherd_spec(in));
    EXPECT_EQ(out.job_id, 42u);
    EXPECT_EQ(out.step_id, 3u);
    EXPECT_EQ(out.user.uid, 1001u);
    EXPECT_EQ(out.user.gid, 1002u);
    EXPECT_EQ(out.user.user, "alice");
    EXPECT_EQ(out.user.groups, in.user.groups);
    EXPECT_EQ(out.work_dir, in.work_dir);
    EXPECT_EQ(out.argv, in.argv);
    EXPECT_EQ(out.env, in.env);
    EXPECT_TRUE(out.open_append);
    EXPECT_EQ(out.status_fd, 9);
    EXPECT_EQ(out.record_fd, 10);
    EXPECT_EQ(out.drain_fds, in.drain_fds);
    EXPECT_EQ(out.prolog, in.prolog);
    EXPECT_EQ(out.job_node_list, in.job_node_list);
    EXPECT_EQ(out.node, "n1");
    EXPECT_EQ(out.pty_fd, 13);
    EXPECT_TRUE(out.batch);
    EXPECT_EQ(out.cpu_bind.kind, CpuBind::mask_cpu);
    EXPECT_EQ(out.cpu_bind.level, CpuBind::cores);
    EXPECT_TRUE(out.cpu_bind.verbose);
    EXPECT_EQ(out.cpu_bind.lists, in.cpu_bind.lists);
    EXPECT_EQ(out.mem_bind.kind, MemBind::map_mem);
    EXPECT_FALSE(out.mem_bind.verbose);
    EXPECT_TRUE(out.mem_bind.prefer);
    EXPECT_EQ(out.mem_bind.lists, in.mem_bind.lists);
    EXPECT_EQ(out.task_scripts.prologs, in.task_scripts.prologs);
    EXPECT_EQ(out.task_scripts.epilogs, in.task_scripts.epilogs);
    ASSERT_EQ(out.tasks.size(), 2u);
    const ShepherdTask &t = out.tasks[0];
    EXPECT_EQ(t.task_id, 5u);
    EXPECT_EQ(t.local_id, 1u);
    EXPECT_EQ(t.in_fd, 14);
    EXPECT_EQ(t.out_fd, -1);
    EXPECT_EQ(t.err_fd, -1);
    EXPECT_EQ(t.out_path, "/tmp/out %j");
    EXPECT_EQ(t.argv, in.tasks[0].argv);
    EXPECT_EQ(t.env, in.tasks[0].env);
    EXPECT_EQ(t.note, "a note\n");
    EXPECT_EQ(t.pmi_fd, 15);
    EXPECT_EQ(t.cpus, in.tasks[0].cpus);
    EXPECT_EQ(t.mems, in.tasks[0].mems);
    EXPECT_EQ(encode_shepherd_spec(out), encode_shepherd_spec(in));
}

TEST(ShepherdCodecTest, RefusesWhatIsNoSpec) {
    std::string bytes = encode_shepherd_spec(full_spec());
    EXPECT_THROW(decode_shepherd_spec(""), std::runtime_error);
    EXPECT_THROW(decode_shepherd_spec(bytes.substr(0, bytes.size() - 1)), std::runtime_error);
    EXPECT_THROW(decode_shepherd_spec(bytes + "x"), std::runtime_error);
    // A list claiming more items than there are bytes is refused before anything is allocated.
    std::string huge = bytes.substr(0, 36 + 4) + std::string("\xff\xff\xff\x7f", 4);
    EXPECT_THROW(decode_shepherd_spec(huge), std::runtime_error);
}

TEST(ShepherdCodecTest, RefusesAnUnknownBindingKind) {
    std::string bytes = encode_shepherd_spec(ShepherdSpec{});
    // An empty spec ends with its bindings (CPU: kind, level, verbose, no lists; memory: kind,
    // verbose, prefer, no lists) and no task scripts: ten numbers, the CPU binding's kind first.
    std::size_t kind_at = bytes.size() - 4 * 10;
    bytes[kind_at] = char(99);
    EXPECT_THROW(decode_shepherd_spec(bytes), std::runtime_error);
}

} // namespace
} // namespace drover::noded
