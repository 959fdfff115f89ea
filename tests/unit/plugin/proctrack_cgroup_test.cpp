// proctrack_cgroup_test.cpp - proctrack/cgroup on this host's real cgroups (v1 or v2), loaded as
// the node daemon loads it, with a slurm.conf and cgroup.conf of the test's own. Needs root and
// a writable hierarchy; skips otherwise.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <thread>

#include <gtest/gtest.h>

#include "../child_load.hpp"
#include "control_files.hpp"
#include "test_support.hpp"

namespace drover::plugin::test {
namespace {

using drover::test::burn_user_cpu;
using drover::test::hold_memory;

namespace fs = std::filesystem;
constexpr uint64_t kMiB = 1024 * 1024;
const std::string kMount = "/sys/fs/cgroup";

// The hierarchies proctrack/cgroup will pick on this host, found as it finds them.
struct HostCgroups {
    bool v2 = false;
    std::map<std::string, std::string> v1; // controller -> mount directory
    std::string skip;                      // why the tests cannot run here; empty = they can

    bool has(const std::string &controller) const {
        if (!v2) return v1.count(controller) > 0;
        auto c = cgroup::read_file(kMount + "/cgroup.controllers");
        return c && cgroup::lists_word(*c, controller);
    }
    // Where the step directories of `controller` live (v2: the one tree).
    std::string root(const std::string &controller) const {
        return v2 ? kMount : v1.at(controller);
    }
    std::vector<std::string> roots() const {
        if (v2) return {kMount};
        std::vector<std::string> out;
        for (const auto &[c, dir] : v1) out.push_back(dir);
        return out;
    }
};

bool writable(const std::string &dir) {
    struct statvfs vfs {};
    return ::access(dir.c_str(), W_OK) == 0 && ::statvfs(dir.c_str(), &vfs) == 0 &&
           !(vfs.f_flag & ST_RDONLY);
}

HostCgroups host_cgroups() {
    HostCgroups h;
    if (::geteuid() != 0) {
        h.skip = "needs root to create cgroups";
        return h;
    }
    auto mounts = cgroup::read_file("/proc/self/mounts");
    cgroup::Mounts m = mounts ? cgroup::parse_mounts(*mounts, kMount) : cgroup::Mounts{};
    auto controllers = m.v2 ? cgroup::read_file(kMount + "/cgroup.controllers") : std::nullopt;
    if (controllers && cgroup::lists_word(*controllers, "memory")) {
        h.v2 = true;
        if (!writable(kMount)) h.skip = kMount + " is not writable";
    } else if (m.v1.count("freezer")) {
        for (const char *c : {"freezer", "pids", "memory", "cpuset", "cpuacct", "blkio"})
            if (m.v1.count(c)) h.v1[c] = m.v1[c];
        if (!writable(h.v1["freezer"])) h.skip = h.v1["freezer"] + " is not writable";
    } else {
        h.skip = "no cgroup hierarchy under " + kMount;
    }
    return h;
}

// Removes a cgroup directory and the cgroups below it (their control files go with them).
void remove_cgroups(const fs::path &dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return;
    for (const auto &e : fs::directory_iterator(dir, ec))
        if (e.is_directory(ec) && !e.is_symlink(ec)) remove_cgroups(e.path());
    ::rmdir(dir.c_str());
}

// A forked child that runs body only once released, as the node daemon starts a step.
struct Held {
    pid_t pid = -1;
    int go = -1;
    void release() {
        (void)!::write(go, "g", 1);
        ::close(go);
        go = -1;
    }
};

Held hold(const std::function<void()> &body) {
    int fds[2];
    if (::pipe(fds) != 0) return {};
    pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[1]);
        char c;
        if (::read(fds[0], &c, 1) == 1) body();
        ::_exit(0);
    }
    ::close(fds[0]);
    return Held{pid, fds[1]};
}

// Waits for pid to end; its wait status, or -1 when it did not end within 5 s.
int wait_end(pid_t pid) {
    for (int i = 0; i < 1000; ++i) {
        int status;
        if (::waitpid(pid, &status, WNOHANG) == pid) return status;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return -1;
}

std::string cpus_allowed(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("Cpus_allowed_list:", 0) == 0)
            return line.substr(line.find_first_not_of(" \t", 18));
    return "";
}

class PluginProctrackCgroup : public ::testing::Test {
  protected:
    void SetUp() override {
        host_ = host_cgroups();
        if (!host_.skip.empty()) GTEST_SKIP() << host_.skip;
        // Orphans (the double-forked sleeper) come back to this process, so it can reap them.
        ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
        node_ = "cgtest-" + std::to_string(::getpid());
    }

    void TearDown() override {
        for (pid_t pid : children_) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
        set_.reset();
        conf_.reset();
        for (const std::string &root : host_.roots())
            for (const char *cluster : {"cgtest", "cgother"}) {
                remove_cgroups(fs::path(root) / "drover" / cluster / node_);
                ::rmdir(
                    (fs::path(root) / "drover" / cluster).c_str()); // when no other test's is left
            }
        ::prctl(PR_SET_CHILD_SUBREAPER, 0);
    }

    // Loads proctrack/cgroup as droverd would, with this cgroup.conf beside a slurm.conf.
    void load(const std::string &cgroup_conf, const std::string &cluster = "cgtest") {
        std::ofstream(dir_ / "slurm.conf") << "ClusterName=" << cluster
                                           << "\nProctrackType=proctrack/cgroup\n"
                                              "NodeName="
                                           << node_ << " CPUs=1\n";
        std::ofstream(dir_ / "cgroup.conf") << cgroup_conf;
        conf_ = std::make_unique<Config>(load_config(dir_ / "slurm.conf"));
        conf_->plugin_dir = kRealPluginDir;
        conf_->raw["drover.node_name"] = node_;
        set_ = std::make_unique<PluginSet>(*conf_, "noded");
        set_->load("proctrack/cgroup");
    }

    const drover_proctrack_ops &ops() const { return set_->proctrack().ops; }
    void *state() const { return set_->proctrack().state; }

    drover_cont_id create(uint32_t job, uint32_t step, Held &h) {
        children_.push_back(h.pid);
        drover_cont_id cont = 0;
        drover_error err{};
        EXPECT_EQ(ops().cont_create(state(), job, step, h.pid, &cont, &err), DROVER_OK) << err.text;
        return cont;
    }

    std::vector<int32_t> pids(drover_cont_id cont) {
        drover_error err{};
        int rc = 0;
        auto out = container_pids(set_->proctrack(), cont, &rc, &err);
        EXPECT_EQ(rc, DROVER_OK) << err.text;
        return out;
    }

    // Polls until the container holds exactly `want` (sorted), for up to 2 s.
    std::vector<int32_t> pids_become(drover_cont_id cont, std::vector<int32_t> want) {
        std::sort(want.begin(), want.end());
        std::vector<int32_t> now = pids(cont);
        for (int i = 0; i < 400 && now != want; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            now = pids(cont);
        }
        return now;
    }

    drover_cont_usage usage(drover_cont_id cont) {
        drover_cont_usage u{};
        u.struct_size = sizeof u;
        drover_error err{};
        EXPECT_EQ(ops().cont_usage(state(), cont, &u, &err), DROVER_OK) << err.text;
        return u;
    }

    int limit(drover_cont_id cont, uint64_t mem, const std::string &cpus) {
        drover_cont_limits l{sizeof l, mem, {cpus.data(), cpus.size()}};
        drover_error err{};
        int rc = ops().cont_limit(state(), cont, &l, &err);
        EXPECT_EQ(rc, DROVER_OK) << err.text;
        return rc;
    }

    fs::path job_dir(const std::string &controller, uint32_t job) const {
        return fs::path(host_.root(controller)) / "drover" / "cgtest" / node_ /
               ("job_" + std::to_string(job));
    }

    HostCgroups host_;
    std::string node_;
    TempDir tmp_;
    fs::path dir_{tmp_.path()};
    std::unique_ptr<Config> conf_;
    std::unique_ptr<PluginSet> set_;
    std::vector<pid_t> children_;
};

TEST_F(PluginProctrackCgroup, FindsSetsidDoubleForkedChildrenAndKillsThemAll) {
    load("");
    int report[2];
    ASSERT_EQ(::pipe(report), 0);
    Held h = hold([&] {
        pid_t mid = ::fork();
        if (mid == 0) {
            ::setsid();
            pid_t sleeper = ::fork();
            if (sleeper == 0) {
                ::pause();
                ::_exit(0);
            }
            (void)!::write(report[1], &sleeper, sizeof sleeper);
            ::_exit(0);
        }
        ::waitpid(mid, nullptr, 0);
        ::pause();
    });
    const drover_cont_id cont = create(21, DROVER_STEP_BATCH, h);
    EXPECT_TRUE(fs::is_directory(job_dir(host_.v2 ? "" : "freezer", 21) / "step_batch"));
    h.release();
    pid_t sleeper = -1;
    ASSERT_EQ(::read(report[0], &sleeper, sizeof sleeper), static_cast<ssize_t>(sizeof sleeper));
    ::close(report[0]);
    ::close(report[1]);
    children_.push_back(sleeper);
    EXPECT_EQ(pids_become(cont, {h.pid, sleeper}),
              (std::vector<int32_t>{std::min(h.pid, sleeper), std::max(h.pid, sleeper)}));

    drover_error err{};
    ASSERT_EQ(ops().cont_signal(state(), cont, SIGKILL, &err), DROVER_OK) << err.text;
    int st = wait_end(h.pid);
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) << st;
    st = wait_end(sleeper);
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) << st;
    children_.clear();
    EXPECT_TRUE(pids_become(cont, {}).empty());
    EXPECT_EQ(ops().cont_signal(state(), cont, SIGTERM, &err), DROVER_ENOENT);
    EXPECT_NE(std::string(err.text).find("job 21 step batch"), std::string::npos) << err.text;

    ASSERT_EQ(ops().cont_destroy(state(), cont, &err), DROVER_OK) << err.text;
    for (const std::string &root : host_.roots())
        EXPECT_FALSE(fs::exists(fs::path(root) / "drover" / "cgtest" / node_ / "job_21")) << root;
    EXPECT_EQ(ops().cont_destroy(state(), cont, &err), DROVER_OK) << "a second destroy is harmless";
}

// Two clusters' droverd on one host, with the same node name and the same job id: each job has a
// cgroup of its own, and ending one leaves the other running.
TEST_F(PluginProctrackCgroup, TwoClustersOnOneHostKeepApart) {
    load("", "cgother");
    std::unique_ptr<Config> other_conf = std::move(conf_);
    std::unique_ptr<PluginSet> other = std::move(set_);
    const auto &theirs = other->proctrack();
    load("");
    Held mine = hold([] {}), their_job = hold([] {});
    const drover_cont_id cont = create(31, 0, mine);
    children_.push_back(their_job.pid);
    drover_cont_id their_cont = 0;
    drover_error err{};
    ASSERT_EQ(theirs.ops.cont_create(theirs.state, 31, 0, their_job.pid, &their_cont, &err),
              DROVER_OK)
        << err.text;
    int rc = 0;
    EXPECT_EQ(pids_become(cont, {mine.pid}), std::vector<int32_t>{mine.pid});
    EXPECT_EQ(container_pids(theirs, their_cont, &rc, &err), std::vector<int32_t>{their_job.pid});

    ASSERT_EQ(ops().cont_signal(state(), cont, SIGKILL, &err), DROVER_OK) << err.text;
    const int st = wait_end(mine.pid);
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) << st;
    ASSERT_EQ(ops().cont_destroy(state(), cont, &err), DROVER_OK) << err.text;
    EXPECT_EQ(::kill(their_job.pid, 0), 0) << "the other cluster's job goes on";
    EXPECT_EQ(container_pids(theirs, their_cont, &rc, &err), std::vector<int32_t>{their_job.pid});
    for (const std::string &root : host_.roots()) {
        EXPECT_FALSE(fs::exists(fs::path(root) / "drover" / "cgtest" / node_ / "job_31")) << root;
        EXPECT_TRUE(
            fs::is_directory(fs::path(root) / "drover" / "cgother" / node_ / "job_31" / "step_0"))
            << root;
    }
    EXPECT_EQ(theirs.ops.cont_signal(theirs.state, their_cont, SIGKILL, &err), DROVER_OK)
        << err.text;
    wait_end(their_job.pid);
    EXPECT_EQ(theirs.ops.cont_destroy(theirs.state, their_cont, &err), DROVER_OK) << err.text;
}

TEST_F(PluginProctrackCgroup, MemoryLimitEndsInAnOutOfMemoryKill) {
    if (!host_.has("memory")) GTEST_SKIP() << "no memory controller";
    load("ConstrainRAMSpace=yes\n");
    Held h = hold([] { hold_memory(256 * kMiB); });
    const drover_cont_id cont = create(22, 0, h);
    ASSERT_EQ(limit(cont, 64 * kMiB, ""), DROVER_OK);
    h.release();
    const int st = wait_end(h.pid);
    children_.clear();
    EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) << "wait status " << st;
    const drover_cont_usage u = usage(cont);
    EXPECT_GE(u.oom_kills, 1u);
    EXPECT_GT(u.max_mem_bytes, 32 * kMiB);
    EXPECT_LE(u.max_mem_bytes, 64 * kMiB);
    drover_error err{};
    EXPECT_EQ(ops().cont_destroy(state(), cont, &err), DROVER_OK) << err.text;
}

TEST_F(PluginProctrackCgroup, CpusetLimitPinsTheStep) {
    if (!host_.has("cpuset")) GTEST_SKIP() << "no cpuset controller";
    load("ConstrainCores=yes\n");
    Held h = hold([] { ::pause(); });
    const drover_cont_id cont = create(23, 1, h);
    ASSERT_EQ(limit(cont, 0, "0"), DROVER_OK);
    h.release();
    EXPECT_EQ(cpus_allowed(h.pid), "0");
    drover_error err{};
    EXPECT_EQ(ops().cont_signal(state(), cont, SIGKILL, &err), DROVER_OK) << err.text;
    EXPECT_NE(wait_end(h.pid), -1);
    children_.clear();
    EXPECT_EQ(ops().cont_destroy(state(), cont, &err), DROVER_OK) << err.text;
}

TEST_F(PluginProctrackCgroup, LimitsNeedTheirConstrainKey) {
    load(""); // Slurm's defaults: ConstrainRAMSpace=no, ConstrainCores=no
    Held h = hold([] { ::pause(); });
    const drover_cont_id cont = create(24, 2, h);
    ASSERT_EQ(limit(cont, 64 * kMiB, "0"), DROVER_OK);
    h.release();
    if (host_.has("memory")) {
        const fs::path step = job_dir("memory", 24) / "step_2";
        auto text = cgroup::read_file(
            (step / (host_.v2 ? "memory.max" : "memory.limit_in_bytes")).string());
        ASSERT_TRUE(text.has_value());
        EXPECT_NE(cgroup::parse_count(*text).value_or(UINT64_MAX), 64 * kMiB);
    }
    if (::sysconf(_SC_NPROCESSORS_ONLN) > 1) {
        EXPECT_NE(cpus_allowed(h.pid), "0");
    }
}

TEST_F(PluginProctrackCgroup, UsageCountsCpuOfEveryProcess) {
    if (!host_.has(host_.v2 ? "cpu" : "cpuacct")) GTEST_SKIP() << "no CPU accounting controller";
    load("");
    Held h = hold([] { burn_user_cpu(300); });
    const drover_cont_id cont = create(25, 3, h);
    h.release();
    EXPECT_NE(wait_end(h.pid), -1);
    children_.clear();
    const drover_cont_usage u = usage(cont);
    EXPECT_GE(u.cpu_user_usec + u.cpu_sys_usec, 250000u);
    EXPECT_EQ(u.oom_kills, 0u);
    drover_error err{};
    EXPECT_EQ(ops().cont_destroy(state(), cont, &err), DROVER_OK) << err.text;
}

// What init refuses, each in one line naming where; none of it needs root.
TEST(PluginProctrackCgroupInit, RefusalsNameThePath) {
    TempDir tmp;
    struct Case {
        const char *cgroup_conf, *want;
    } cases[] = {
        {"CgroupMountpoint=/nonexistent-drover-cgroups\n",
         "/nonexistent-drover-cgroups: neither a cgroup2 mount"},
        {"CgroupPlugin=disabled\n", "CgroupPlugin=disabled"},
        {"CgroupPlugin=cgroup/v2\nCgroupMountpoint=/nonexistent-drover-cgroups\n",
         "/nonexistent-drover-cgroups: no cgroup2 file system mounted here"},
    };
    for (const auto &c : cases) {
        std::ofstream(tmp / "slurm.conf") << "ClusterName=cgtest\n";
        std::ofstream(tmp / "cgroup.conf") << c.cgroup_conf;
        Config conf = load_config(tmp / "slurm.conf");
        conf.plugin_dir = kRealPluginDir;
        conf.raw["drover.node_name"] = "cgtest-init";
        PluginSet set(conf, "noded");
        try {
            set.load("proctrack/cgroup");
            ADD_FAILURE() << "loaded with " << c.cgroup_conf;
        } catch (const LoadError &e) {
            EXPECT_NE(std::string(e.what()).find(c.want), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        }
    }
}

TEST(PluginProctrackCgroupInit, OutsideTheNodeDaemonItTouchesNothing) {
    Config conf = real_plugin_config();
    conf.raw["cgroup.cgroupmountpoint"] = "/nonexistent-drover-cgroups";
    PluginSet set(conf, "ctld");
    set.load("proctrack/cgroup");
    drover_cont_id cont = 0;
    drover_error err{};
    EXPECT_EQ(set.proctrack().ops.cont_create(set.proctrack().state, 1, 0, 12345, &cont, &err),
              DROVER_EINVAL);
    EXPECT_NE(std::string(err.text).find("node daemon"), std::string::npos) << err.text;
}

} // namespace
} // namespace drover::plugin::test
