// proctrack_cgroup_test.cpp - proctrack/cgroup on this host's real cgroups (v1 or v2), loaded as
// the node daemon loads it, with a slurm.conf and cgroup.conf of the test's own. Needs root and
// a writable hierarchy; skips otherwise.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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
#include "device_filter.hpp"
#include "devices.hpp"
#include "plugin/host_api.hpp"
#include "settings.hpp"
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
    std::string v1_devices; // the devices hierarchy, joined only with ConstrainDevices=yes
    std::string skip;       // why the tests cannot run here; empty = they can

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
        if (m.v1.count("devices")) h.v1_devices = m.v1["devices"];
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

// errno of opening path for reading (0 when it opened).
int open_errno(const std::string &path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    ::close(fd);
    return 0;
}

// A character major of the range for local use (240-254) that no driver holds here, or 0.
uint32_t free_char_major() {
    std::ifstream in("/proc/devices");
    std::vector<uint32_t> used;
    std::string line;
    bool chars = false;
    while (std::getline(in, line)) {
        if (line.rfind("Block", 0) == 0) break;
        if (chars) used.push_back(static_cast<uint32_t>(std::strtoul(line.c_str(), nullptr, 10)));
        chars = chars || line.rfind("Character", 0) == 0;
    }
    for (uint32_t major = 240; major <= 254; ++major)
        if (std::find(used.begin(), used.end(), major) == used.end()) return major;
    return 0;
}

// Two character device nodes of a major no driver holds: opening either fails with ENXIO unless
// something refuses before the kernel looks for the driver.
struct FakeDevices {
    std::string denied, other;
};

// Makes them in dir; nullopt with *skip set when this host cannot.
std::optional<FakeDevices> fake_devices(const fs::path &dir, std::string *skip) {
    const uint32_t major = free_char_major();
    if (major == 0) {
        *skip = "every character major from 240 to 254 has a driver";
        return std::nullopt;
    }
    FakeDevices dev{(dir / "gpu-denied").string(), (dir / "gpu-other").string()};
    for (uint32_t minor : {0u, 1u}) {
        const std::string &path = minor == 0 ? dev.denied : dev.other;
        if (::mknod(path.c_str(), S_IFCHR | 0600, ::makedev(major, minor)) != 0) {
            *skip = "mknod " + path + ": " + std::strerror(errno);
            return std::nullopt;
        }
    }
    if (int e = open_errno(dev.other); e != ENXIO) {
        *skip = "opening " + dev.other + " (major " + std::to_string(major) + ") gives '" +
                std::strerror(e) + "' here, not ENXIO (a nodev mount?)";
        return std::nullopt;
    }
    return dev;
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
        std::vector<std::string> roots = host_.roots();
        roots.insert(roots.end(), extra_roots_.begin(), extra_roots_.end());
        for (const std::string &root : roots)
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

    // cont_limit with only deny_devices set; err's text into *text.
    int deny(drover_cont_id cont, const std::string &paths, std::string *text) {
        drover_cont_limits l{sizeof l, 0, {}, {paths.data(), paths.size()}};
        drover_error err{};
        const int rc = ops().cont_limit(state(), cont, &l, &err);
        *text = err.text;
        return rc;
    }

    // A step denied one of two fake devices: its process gets EPERM opening that one (the cgroup
    // refused it) but ENXIO opening the other (the kernel went on to look for a driver).
    void expect_only_the_denied_device_refused(uint32_t job, const FakeDevices &dev) {
        int report[2];
        ASSERT_EQ(::pipe(report), 0);
        Held h = hold([&] {
            const int got[2] = {open_errno(dev.denied), open_errno(dev.other)};
            (void)!::write(report[1], got, sizeof got);
        });
        ::close(report[1]);
        const drover_cont_id cont = create(job, 0, h);
        std::string text;
        EXPECT_EQ(deny(cont, "/nonexistent-drover-gpu", &text), DROVER_EINVAL);
        EXPECT_NE(text.find("/nonexistent-drover-gpu"), std::string::npos) << text;
        ASSERT_EQ(deny(cont, dev.denied, &text), DROVER_OK) << text;
        h.release();
        int got[2] = {-1, -1};
        EXPECT_EQ(::read(report[0], got, sizeof got), static_cast<ssize_t>(sizeof got));
        ::close(report[0]);
        EXPECT_EQ(got[0], EPERM) << dev.denied << ": " << std::strerror(got[0]);
        EXPECT_EQ(got[1], ENXIO) << dev.other << ": " << std::strerror(got[1]);
        EXPECT_NE(wait_end(h.pid), -1);
        children_.clear();
        drover_error err{};
        EXPECT_EQ(ops().cont_destroy(state(), cont, &err), DROVER_OK) << err.text;
    }

    fs::path job_dir(const std::string &controller, uint32_t job) const {
        return fs::path(host_.root(controller)) / "drover" / "cgtest" / node_ /
               ("job_" + std::to_string(job));
    }

    HostCgroups host_;
    std::vector<std::string> extra_roots_; // other hierarchies a test used, cleaned as host_'s
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

// ConstrainDevices on the tree this host gives: the v1 devices hierarchy's devices.deny, or on
// cgroup v2 the eBPF device filter.
TEST_F(PluginProctrackCgroup, ConstrainDevicesRefusesOnlyTheDeniedDevice) {
    if (!host_.v2 && host_.v1_devices.empty()) GTEST_SKIP() << "no cgroup v1 devices hierarchy";
    if (std::string why = cgroup::probe_device_filter(); host_.v2 && !why.empty())
        GTEST_SKIP() << "cgroup v2, but bpf() does not load a device filter: " << why;
    std::string skip;
    std::optional<FakeDevices> dev = fake_devices(dir_, &skip);
    if (!dev) GTEST_SKIP() << skip;
    if (!host_.v2) extra_roots_.push_back(host_.v1_devices);
    load("ConstrainDevices=yes\n");
    if (!host_.v2) {
        EXPECT_TRUE(fs::is_directory(fs::path(host_.v1_devices) / "drover" / "cgtest" / node_));
    }
    expect_only_the_denied_device_refused(41, *dev);
}

// A v1 host that mounts cgroup2 beside its controllers (hybrid: <mount>/unified) runs the v2
// tree there, so the eBPF device filter is checked on a v1 host too.
TEST_F(PluginProctrackCgroup, ConstrainDevicesOnCgroupV2AttachesADeviceFilter) {
    const std::string unified = kMount + "/unified";
    auto mounts = cgroup::read_file("/proc/self/mounts");
    if (host_.v2) GTEST_SKIP() << "a cgroup v2 host: ConstrainDevicesRefusesOnlyTheDeniedDevice";
    if (!mounts || !cgroup::parse_mounts(*mounts, unified).v2 || !writable(unified))
        GTEST_SKIP() << "no writable cgroup2 mount at " << unified;
    if (std::string why = cgroup::probe_device_filter(); !why.empty())
        GTEST_SKIP() << "bpf() does not load a device filter: " << why;
    std::string skip;
    std::optional<FakeDevices> dev = fake_devices(dir_, &skip);
    if (!dev) GTEST_SKIP() << skip;
    extra_roots_.push_back(unified);
    load("CgroupPlugin=cgroup/v2\nCgroupMountpoint=" + unified + "\nConstrainDevices=yes\n");
    expect_only_the_denied_device_refused(42, *dev);
}

// cgroup.conf's ConstrainDevices reaches the plugin's settings through the core's conf_get.
TEST(PluginProctrackCgroupDevices, SettingsReadConstrainDevices) {
    const std::pair<const char *, bool> cases[] = {
        {"", false}, {"ConstrainDevices=yes\n", true}, {"constraindevices=NO\n", false}};
    for (const auto &[text, want] : cases) {
        Config conf;
        parse_cgroup_conf(text, "cgroup.conf", conf);
        drover_ctx ctx = make_host_context("proctrack/cgroup", conf, "noded");
        const sdk::Host host(&ctx, &host_api());
        EXPECT_EQ(cgroup::read_settings(host).constrain_devices, want) << text;
    }
}

// The device filter: the context loaded into r2-r4 (type masked to its low 16 bits), five
// instructions per device (three compares that each skip to the next device, then "return 0"),
// and "return 1" at the end.
TEST(PluginProctrackCgroupDevices, FilterProgramShape) {
    using cgroup::Device;
    const auto none = cgroup::device_filter({});
    ASSERT_EQ(none.size(), 6u);
    const std::vector<Device> two = {{'c', 195, 1}, {'b', 8, 16}};
    const std::vector<bpf_insn> p = cgroup::device_filter(two);
    ASSERT_EQ(p.size(), 4u + 2 * 5 + 2);
    struct Load {
        size_t at;
        int reg, off; // the register and the context offset it loads
    };
    for (const auto [i, reg, off] : {Load{0, 2, 0}, Load{2, 3, 4}, Load{3, 4, 8}}) {
        EXPECT_EQ(p[i].code, BPF_LDX | BPF_MEM | BPF_W) << i;
        EXPECT_EQ(int(p[i].dst_reg), reg) << i;
        EXPECT_EQ(int(p[i].src_reg), 1) << i;
        EXPECT_EQ(p[i].off, off) << i;
    }
    EXPECT_EQ(p[1].code, BPF_ALU | BPF_AND | BPF_K);
    EXPECT_EQ(p[1].imm, 0xffff);
    for (size_t d = 0; d < two.size(); ++d) {
        const bpf_insn *b = &p[4 + 5 * d];
        const int32_t want[3] = {two[d].type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR,
                                 int32_t(two[d].major), int32_t(two[d].minor)};
        for (int i = 0; i < 3; ++i) {
            EXPECT_EQ(b[i].code, BPF_JMP | BPF_JNE | BPF_K) << d << "." << i;
            EXPECT_EQ(int(b[i].dst_reg), 2 + i) << d << "." << i;
            EXPECT_EQ(b[i].imm, want[i]) << d << "." << i;
            EXPECT_EQ(i + 1 + b[i].off, 5) << "skips to the next device: " << d << "." << i;
        }
        EXPECT_EQ(b[3].code, BPF_ALU64 | BPF_MOV | BPF_K);
        EXPECT_EQ(int(b[3].dst_reg), 0);
        EXPECT_EQ(b[3].imm, 0) << "deny";
        EXPECT_EQ(b[4].code, BPF_JMP | BPF_EXIT);
    }
    EXPECT_EQ(p[p.size() - 2].code, BPF_ALU64 | BPF_MOV | BPF_K);
    EXPECT_EQ(p[p.size() - 2].imm, 1) << "allow";
    EXPECT_EQ(p.back().code, BPF_JMP | BPF_EXIT);
    EXPECT_EQ(cgroup::deny_line(two[0]), "c 195:1 rwm");
    EXPECT_EQ(cgroup::deny_line(two[1]), "b 8:16 rwm");
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
