// sampler_test.cpp - StepSampler on real processes (memory, CPU, a grandchild, an orphan) and on
// a /proc of fixture files.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include "../child_load.hpp"
#include "noded/sampler.hpp"

namespace drover::noded {
namespace {

using drover::test::burn_user_cpu;
using drover::test::hold_memory;

constexpr uint64_t kMiB = 1024 * 1024;

// A pipe a child waits on until the test lets it go, and one it says "ready" on.
struct Gate {
    int go[2] = {-1, -1}, ready[2] = {-1, -1};
    Gate() {
        if (::pipe(go) != 0 || ::pipe(ready) != 0) std::abort();
    }
    ~Gate() {
        for (int fd : {go[0], go[1], ready[0], ready[1]}) ::close(fd);
    }
    // In a child: says ready, then blocks until open() (or the test's end). The child's own
    // copy of the write end is closed first, or the read would never see the end of the pipe.
    void child_ready_and_wait() const {
        ::close(go[1]);
        (void)!::write(ready[1], "r", 1);
        char c;
        (void)!::read(go[0], &c, 1);
    }
    void wait_ready(int n = 1) const {
        for (int i = 0; i < n; ++i) {
            char c;
            (void)!::read(ready[0], &c, 1);
        }
    }
    void open() {
        ::close(go[1]);
        go[1] = -1;
    }
};

// A pipe on which a child tells the test the pid of a process it started.
struct PidReport {
    int fds[2] = {-1, -1};
    PidReport() {
        if (::pipe(fds) != 0) std::abort();
    }
    ~PidReport() {
        ::close(fds[0]);
        ::close(fds[1]);
    }
    void send(pid_t pid) const { (void)!::write(fds[1], &pid, sizeof pid); }
    pid_t receive() const {
        pid_t pid = -1;
        return ::read(fds[0], &pid, sizeof pid) == static_cast<ssize_t>(sizeof pid) ? pid : -1;
    }
};

pid_t spawn(const std::function<void()> &body) {
    pid_t pid = ::fork();
    if (pid == 0) {
        body();
        ::_exit(0);
    }
    return pid;
}

void reap(pid_t pid) {
    int status;
    ::waitpid(pid, &status, 0);
}

TEST(StepSampler, MaxRssOfAChildHolding100MB) {
    Gate gate;
    pid_t child = spawn([&] {
        hold_memory(100 * kMiB);
        gate.child_ready_and_wait();
    });
    gate.wait_ready();
    StepSampler s({{0, child}});
    std::vector<int32_t> pids{child};
    s.sample(pids);
    s.sample(pids);
    gate.open();
    reap(child);
    StepUsageSummary u = s.summary("n1");
    EXPECT_EQ(u.tasks, 1u);
    EXPECT_GE(u.max_rss, 100 * kMiB);
    EXPECT_EQ(u.max_rss_node, "n1");
    EXPECT_EQ(u.max_rss_task, 0u);
    EXPECT_GE(u.ave_rss, 100 * kMiB);
    EXPECT_GE(u.max_vsize, 100 * kMiB);
    EXPECT_GE(u.ave_vsize, 100 * kMiB);
}

TEST(StepSampler, CpuOfAChildBurningHalfASecond) {
    pid_t child = spawn([] { burn_user_cpu(500); });
    StepSampler s({{3, child}});
    std::vector<int32_t> pids{child};
    s.sample(pids);
    int status;
    rusage ru{};
    ASSERT_EQ(::wait4(child, &status, 0, &ru), child);
    s.task_ended(3, ru);
    s.sample({});
    StepUsageSummary u = s.summary("n1");
    EXPECT_GE(u.user_cpu_usec + u.sys_cpu_usec, 300000u);
    EXPECT_GE(u.user_cpu_usec, 300000u);
    EXPECT_EQ(u.min_cpu_task, 3u);
    EXPECT_GE(u.min_cpu_usec, 300000u);
    EXPECT_GE(u.ave_cpu_usec, 300000u);
    EXPECT_GT(u.max_rss, 0u); // ru_maxrss at least
}

TEST(StepSampler, AGrandchildCountsForItsTaskAndStaysThere) {
    Gate gate;
    pid_t a = spawn([&] { gate.child_ready_and_wait(); });
    PidReport report;
    pid_t b = spawn([&] {
        pid_t c = spawn([&] {
            hold_memory(60 * kMiB);
            gate.child_ready_and_wait();
        });
        report.send(c);
        gate.child_ready_and_wait();
    });
    const pid_t c = report.receive();
    ASSERT_GT(c, 0);
    gate.wait_ready(3);
    StepSampler s({{0, a}, {1, b}});
    s.sample(std::vector<int32_t>{a, b, c});
    StepUsageSummary u = s.summary("n1");
    EXPECT_EQ(u.tasks, 2u);
    EXPECT_GE(u.max_rss, 60 * kMiB);
    EXPECT_EQ(u.max_rss_task, 1u);

    // The task's first process goes; its orphaned child is still the task's.
    ::kill(b, SIGKILL);
    reap(b);
    s.sample(std::vector<int32_t>{a, c});
    u = s.summary("n1");
    EXPECT_EQ(u.max_rss_task, 1u);
    EXPECT_GE(u.ave_rss, 30 * kMiB); // task 1's 60 MB over two tasks
    gate.open();
    reap(a);
    for (int i = 0; i < 200 && ::kill(c, 0) == 0; ++i) ::usleep(5000);
}

TEST(StepSampler, AnOrphanNoTaskOwnsCountsForTheLowestTask) {
    ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0); // the orphan comes back to this process
    Gate gate;
    PidReport report;
    pid_t a = spawn([&] { gate.child_ready_and_wait(); });
    pid_t b = spawn([&] {
        pid_t mid = spawn([&] {
            ::setsid();
            pid_t d = spawn([&] {
                hold_memory(40 * kMiB);
                gate.child_ready_and_wait();
            });
            report.send(d);
        });
        reap(mid);
        gate.child_ready_and_wait();
    });
    const pid_t d = report.receive();
    ASSERT_GT(d, 0);
    gate.wait_ready(3);
    StepSampler s({{7, b}, {5, a}});
    s.sample(std::vector<int32_t>{a, b, d});
    StepUsageSummary u = s.summary("n1");
    EXPECT_GE(u.max_rss, 40 * kMiB);
    EXPECT_EQ(u.max_rss_task, 5u);
    gate.open();
    reap(a);
    reap(b);
    reap(d);
    ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}

// A /proc of fixture files: the command name holds spaces and parentheses.
class StepSamplerFixture : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("drover-sampler-test-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    // stat with ppid, utime/stime in ticks, start time, vsize in bytes and rss in pages.
    void proc(int pid, int ppid, uint64_t utime, uint64_t stime, uint64_t vsize, uint64_t rss,
              const char *io = nullptr) {
        auto d = dir_ / std::to_string(pid);
        std::filesystem::create_directories(d);
        std::ofstream(d / "stat") << pid << " (my (odd) name) S " << ppid << " " << pid << " "
                                  << pid << " 0 -1 4194560 100 0 0 0 " << utime << " " << stime
                                  << " 0 0 20 0 1 0 12345 " << vsize << " " << rss
                                  << " 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0\n";
        if (io) std::ofstream(d / "io") << io;
    }
    std::filesystem::path dir_;
};

TEST_F(StepSamplerFixture, ReadsStatAndIo) {
    const uint64_t hz = static_cast<uint64_t>(::sysconf(_SC_CLK_TCK));
    const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    proc(100, 1, hz * 2, hz / 2, 1 << 20, 256,
         "rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 4096\nwrite_bytes: 8192\n"
         "cancelled_write_bytes: 0\n");
    proc(101, 100, hz, 0, 1 << 20, 100); // no io file: no disk figures, no error
    proc(200, 1, 0, 0, 4096, 1);
    StepSampler s({{0, 100}, {1, 200}}, dir_.string());
    s.sample(std::vector<int32_t>{100, 101, 200, 999}); // 999 has no files at all
    StepUsageSummary u = s.summary("n9");
    EXPECT_EQ(u.max_rss, 356 * page);
    EXPECT_EQ(u.max_rss_task, 0u);
    EXPECT_EQ(u.max_vsize, 2u << 20);
    EXPECT_EQ(u.user_cpu_usec, 3000000u);
    EXPECT_EQ(u.sys_cpu_usec, 500000u);
    EXPECT_EQ(u.min_cpu_usec, 0u);
    EXPECT_EQ(u.min_cpu_task, 1u);
    EXPECT_EQ(u.ave_cpu_usec, 1750000u);
    EXPECT_EQ(u.max_disk_read, 4096u);
    EXPECT_EQ(u.max_disk_write, 8192u);
    EXPECT_EQ(u.max_disk_write_node, "n9");
    EXPECT_EQ(u.ave_disk_read, 2048u);
    EXPECT_EQ(u.ave_rss, (356 + 1) * page / 2);

    // 101 exits: its CPU stays with task 0. A larger wait4 figure wins.
    std::filesystem::remove_all(dir_ / "101");
    s.sample(std::vector<int32_t>{100, 200});
    EXPECT_EQ(s.summary("n9").user_cpu_usec, 3000000u);
    rusage ru{};
    ru.ru_utime.tv_sec = 9;
    ru.ru_maxrss = 1024 * 1024; // KiB: 1 GiB
    s.task_ended(1, ru);
    u = s.summary("n9");
    EXPECT_EQ(u.user_cpu_usec, 12000000u);
    EXPECT_EQ(u.max_rss, 1024u * kMiB);
    EXPECT_EQ(u.max_rss_task, 1u);
    EXPECT_EQ(u.min_cpu_task, 0u);
}

TEST_F(StepSamplerFixture, ContainerFiguresFoldIn) {
    proc(100, 1, 0, 0, 4096, 1);
    proc(200, 1, 0, 0, 4096, 1);
    StepSampler s({{0, 100}, {1, 200}}, dir_.string());
    s.sample(std::vector<int32_t>{100, 200});
    drover_cont_usage c{};
    c.struct_size = sizeof c;
    c.max_mem_bytes = 10 * kMiB;
    c.cpu_user_usec = 4000000;
    c.oom_kills = 1;
    s.add_container(c);
    c.max_mem_bytes = 2 * kMiB; // counters only grow: a smaller figure changes nothing
    c.oom_kills = 0;
    s.add_container(c);
    StepUsageSummary u = s.summary("n1");
    EXPECT_EQ(u.oom_kills, 1u);
    EXPECT_EQ(u.max_rss, 5 * kMiB); // at the peak, some task held at least half
    EXPECT_EQ(u.user_cpu_usec, 4000000u);
    EXPECT_EQ(u.ave_cpu_usec, 2000000u);

    // An ABI 1.3 record cut short before oom_kills: only what it holds is read.
    drover_cont_usage old{};
    old.struct_size = offsetof(drover_cont_usage, oom_kills);
    old.oom_kills = 99;
    s.add_container(old);
    EXPECT_EQ(s.summary("n1").oom_kills, 1u);
}

TEST(StepSamplerEmpty, NoTasksNoFigures) {
    StepSampler s({});
    s.sample(std::vector<int32_t>{});
    EXPECT_EQ(s.summary("n1"), StepUsageSummary{});
}

} // namespace
} // namespace drover::noded
