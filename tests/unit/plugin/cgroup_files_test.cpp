// cgroup_files_test.cpp - proctrack/cgroup's reading of cgroup v1 and v2 files: the formats on
// fixture files, and the v1 and v2 trees' limits and usage on a directory laid out like a
// mounted hierarchy (so v2 is checked on a host that runs v1, and the other way round).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "control_files.hpp"
#include "tree.hpp"

namespace drover::cgroup {
namespace {

namespace fs = std::filesystem;

const std::string kFixtures = DROVER_TEST_CGROUP_FIXTURES;

std::string fixture(const std::string &name) {
    auto text = read_file(kFixtures + "/" + name);
    if (!text) throw std::runtime_error("missing fixture " + name);
    return *text;
}

TEST(CgroupFiles, MountsOfAV1Host) {
    Mounts m = parse_mounts(fixture("mounts_v1"), "/sys/fs/cgroup");
    EXPECT_FALSE(m.v2); // the cgroup2 at .../unified is not at the mountpoint
    EXPECT_EQ(m.v1.at("freezer"), "/sys/fs/cgroup/freezer");
    EXPECT_EQ(m.v1.at("memory"), "/sys/fs/cgroup/memory");
    EXPECT_EQ(m.v1.at("cpuacct"), "/sys/fs/cgroup/cpu,cpuacct");
    EXPECT_EQ(m.v1.at("cpu"), "/sys/fs/cgroup/cpu,cpuacct");
    EXPECT_EQ(m.v1.at("pids"), "/sys/fs/cgroup/pids");
    EXPECT_EQ(m.v1.count("name=systemd"), 0u);
    // A freezer mounted outside the mountpoint does not count.
    EXPECT_TRUE(parse_mounts(fixture("mounts_v1"), "/elsewhere/x").v1.empty());
    EXPECT_EQ(parse_mounts(fixture("mounts_v1"), "/elsewhere").v1.at("freezer"),
              "/elsewhere/freezer");
}

TEST(CgroupFiles, MountsOfAV2Host) {
    Mounts m = parse_mounts(fixture("mounts_v2"), "/sys/fs/cgroup");
    EXPECT_TRUE(m.v2);
    EXPECT_TRUE(m.v1.empty());
    EXPECT_FALSE(parse_mounts(fixture("mounts_v2"), "/sys/fs").v2);
    EXPECT_TRUE(lists_word(fixture("v2_cgroup.controllers"), "memory"));
    EXPECT_TRUE(lists_word(fixture("v2_cgroup.controllers"), "cpuset"));
    EXPECT_FALSE(lists_word(fixture("v2_cgroup.controllers"), "freezer"));
    EXPECT_FALSE(lists_word("", "memory"));
}

TEST(CgroupFiles, CountsAndKeyedLines) {
    EXPECT_EQ(parse_count("9223372036854771712\n"), 9223372036854771712u);
    EXPECT_EQ(parse_count("max\n"), std::nullopt);
    EXPECT_EQ(parse_count(""), std::nullopt);
    EXPECT_EQ(keyed_value(fixture("v1_memory.oom_control"), "oom_kill"), 3u);
    EXPECT_EQ(keyed_value(fixture("v1_memory.oom_control"), "oom"), std::nullopt);
    EXPECT_EQ(keyed_value(fixture("v2_memory.events"), "oom_kill"), 2u);
    EXPECT_EQ(keyed_value(fixture("v2_cpu.stat"), "user_usec"), 1200000u);
    EXPECT_EQ(keyed_value(fixture("v2_cpu.stat"), "system_usec"), 300000u);
    EXPECT_EQ(keyed_value(fixture("v1_cpuacct.stat"), "system"), 30u);
    EXPECT_EQ(parse_pids(fixture("v1_cgroup.procs")), (std::vector<int32_t>{4242, 4250, 17}));
    EXPECT_TRUE(parse_pids("").empty());
}

TEST(CgroupFiles, DiskBytes) {
    EXPECT_EQ(parse_blkio_bytes(fixture("v1_blkio.throttle.io_service_bytes")),
              (IoBytes{4196, 1024}));
    EXPECT_EQ(parse_blkio_bytes("Total 0\n"), (IoBytes{}));
    EXPECT_EQ(parse_io_stat(fixture("v2_io.stat")), (IoBytes{1048577, 2050}));
    EXPECT_EQ(parse_io_stat(""), (IoBytes{}));
}

TEST(CgroupFiles, StepNames) {
    EXPECT_EQ(step_path({7, DROVER_STEP_BATCH}), "job_7/step_batch");
    EXPECT_EQ(step_path({7, DROVER_STEP_EXTERN}), "job_7/step_extern");
    EXPECT_EQ(step_path({7, 0}), "job_7/step_0");
    EXPECT_EQ(step_label({12, 3}), "job 12 step 3");
    Step s = step_of(cont_of({0x03ff0000, DROVER_STEP_BATCH}));
    EXPECT_EQ(s.job, 0x03ff0000u);
    EXPECT_EQ(s.step, DROVER_STEP_BATCH);
}

// A directory laid out as a mounted hierarchy, with control files as plain files.
class FakeHierarchy : public ::testing::Test {
  protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("drover-cgfiles-test-" + std::to_string(::getpid()));
        fs::create_directories(root_);
        settings_.mountpoint = root_.string();
        settings_.cluster = "c1";
        settings_.node = "n1";
        settings_.constrain_ram = true;
        settings_.constrain_cores = true;
        settings_.allowed_ram_percent = 50;
    }
    void TearDown() override { fs::remove_all(root_); }

    // Writes name under dir (relative to the root) with text ("" = an empty control file).
    void file(const std::string &dir, const std::string &name, const std::string &text = "") {
        fs::create_directories(root_ / dir);
        std::ofstream(root_ / dir / name) << text;
    }
    std::string content(const std::string &path) {
        std::ifstream in(root_ / path);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
    drover_cont_limits limits(uint64_t mem, const std::string &cpus,
                              const std::string &deny_devices = "") {
        cpus_ = cpus;
        deny_ = deny_devices;
        return drover_cont_limits{sizeof(drover_cont_limits),
                                  mem,
                                  {cpus_.data(), cpus_.size()},
                                  {deny_.data(), deny_.size()}};
    }
    // The Error tree->limit throws for l, or "(no error)".
    std::string limit_error(Tree &tree, const drover_cont_limits &l) {
        try {
            tree.limit(step_, l);
        } catch (const Error &e) {
            return std::to_string(e.code()) + " " + e.what();
        }
        return "(no error)";
    }

    fs::path root_;
    Settings settings_;
    std::string cpus_, deny_;
    const Step step_{7, 0};
};

TEST_F(FakeHierarchy, V2LimitsAndUsage) {
    const std::string dir = "drover/c1/n1/job_7/step_0";
    for (const char *f : {"memory.max", "memory.swap.max", "cpuset.cpus"}) file(dir, f);
    file(dir, "memory.current", "1000\n");
    file(dir, "memory.peak", "5000\n");
    file(dir, "cgroup.procs", fixture("v1_cgroup.procs"));
    file(dir, "cpu.stat", fixture("v2_cpu.stat"));
    file(dir, "io.stat", fixture("v2_io.stat"));
    file(dir, "memory.events", fixture("v2_memory.events"));
    auto tree = make_tree_v2(settings_);

    tree->limit(step_, limits(64 << 20, "0-1"));
    EXPECT_EQ(content(dir + "/memory.max"), std::to_string(32 << 20));
    EXPECT_EQ(content(dir + "/memory.swap.max"), "0");
    EXPECT_EQ(content(dir + "/cpuset.cpus"), "0-1");
    EXPECT_EQ(tree->pids(step_), (std::vector<int32_t>{4242, 4250, 17}));

    drover_cont_usage u{};
    u.struct_size = sizeof u;
    tree->usage(step_, u);
    EXPECT_EQ(u.mem_bytes, 1000u);
    EXPECT_EQ(u.max_mem_bytes, 5000u);
    EXPECT_EQ(u.cpu_user_usec, 1200000u);
    EXPECT_EQ(u.cpu_sys_usec, 300000u);
    EXPECT_EQ(u.disk_read_bytes, 1048577u);
    EXPECT_EQ(u.disk_write_bytes, 2050u);
    EXPECT_EQ(u.oom_kills, 2u);

    // Without memory.peak (before Linux 5.19) the peak is at least what is held now.
    fs::remove(root_ / dir / "memory.peak");
    tree->usage(step_, u);
    EXPECT_EQ(u.max_mem_bytes, 1000u);

    // A record as short as ABI 1.3 without oom_kills is filled only as far as it goes.
    drover_cont_usage short_u{};
    short_u.struct_size = offsetof(drover_cont_usage, oom_kills);
    tree->usage(step_, short_u);
    EXPECT_EQ(short_u.oom_kills, 0u);
    EXPECT_EQ(short_u.cpu_user_usec, 1200000u);

    try {
        tree->usage({8, 0}, u);
        FAIL() << "no error";
    } catch (const Error &e) {
        EXPECT_EQ(e.code(), DROVER_ENOENT);
        EXPECT_NE(std::string(e.what()).find("drover/c1/n1/job_8/step_0"), std::string::npos)
            << e.what();
    }
}

TEST_F(FakeHierarchy, V2WithoutConstraintsSetsNoLimit) {
    settings_.constrain_ram = settings_.constrain_cores = false;
    const std::string dir = "drover/c1/n1/job_7/step_0";
    file(dir, "memory.max");
    file(dir, "cpuset.cpus");
    make_tree_v2(settings_)->limit(step_, limits(64 << 20, "0"));
    EXPECT_EQ(content(dir + "/memory.max"), "");
    EXPECT_EQ(content(dir + "/cpuset.cpus"), "");
}

TEST_F(FakeHierarchy, V1LimitsAndUsage) {
    const std::string step = "/drover/c1/n1/job_7/step_0";
    file("freezer" + step, "cgroup.procs", "99\n");
    file("memory" + step, "memory.limit_in_bytes");
    file("memory" + step, "memory.memsw.limit_in_bytes");
    file("memory" + step, "memory.usage_in_bytes", "4096\n");
    file("memory" + step, "memory.max_usage_in_bytes", "8192\n");
    file("memory" + step, "memory.oom_control", fixture("v1_memory.oom_control"));
    file("cpuset" + step, "cpuset.cpus");
    file("cpuacct" + step, "cpuacct.stat", fixture("v1_cpuacct.stat")); // no usage_user: ticks
    file("blkio" + step, "blkio.throttle.io_service_bytes",
         fixture("v1_blkio.throttle.io_service_bytes"));
    std::vector<std::pair<std::string, std::string>> dirs;
    for (const char *c : {"blkio", "cpuacct", "cpuset", "memory", "freezer"})
        dirs.emplace_back(c, (root_ / c).string());
    auto tree = make_tree_v1(settings_, dirs);
    EXPECT_EQ(tree->describe(),
              "cgroup v1 (freezer memory cpuset cpuacct blkio) under " + root_.string());

    tree->limit(step_, limits(100 << 20, "1"));
    EXPECT_EQ(content("memory" + step + "/memory.limit_in_bytes"), std::to_string(50 << 20));
    EXPECT_EQ(content("memory" + step + "/memory.memsw.limit_in_bytes"), std::to_string(50 << 20));
    EXPECT_EQ(content("cpuset" + step + "/cpuset.cpus"), "1");
    EXPECT_EQ(tree->pids(step_), std::vector<int32_t>{99});

    drover_cont_usage u{};
    u.struct_size = sizeof u;
    tree->usage(step_, u);
    const uint64_t hz = static_cast<uint64_t>(::sysconf(_SC_CLK_TCK));
    EXPECT_EQ(u.mem_bytes, 4096u);
    EXPECT_EQ(u.max_mem_bytes, 8192u);
    EXPECT_EQ(u.oom_kills, 3u);
    EXPECT_EQ(u.cpu_user_usec, 250 * 1000000 / hz);
    EXPECT_EQ(u.cpu_sys_usec, 30 * 1000000 / hz);
    EXPECT_EQ(u.disk_read_bytes, 4196u);
    EXPECT_EQ(u.disk_write_bytes, 1024u);

    file("cpuacct" + step, "cpuacct.usage_user", "2000000000\n"); // ns
    file("cpuacct" + step, "cpuacct.usage_sys", "1000\n");
    tree->usage(step_, u);
    EXPECT_EQ(u.cpu_user_usec, 2000000u);
    EXPECT_EQ(u.cpu_sys_usec, 1u);
}

// ConstrainDevices on v1: one devices.deny rule per device (the fixture's control file is a
// plain file, so it keeps the last write); paths that are not devices are refused by name.
TEST_F(FakeHierarchy, V1DeniesDevicesByNumber) {
    settings_.constrain_devices = true;
    const std::string step = "/drover/c1/n1/job_7/step_0";
    file("freezer" + step, "cgroup.procs", "99\n");
    file("devices" + step, "devices.deny");
    std::vector<std::pair<std::string, std::string>> dirs;
    for (const char *c : {"devices", "freezer"}) dirs.emplace_back(c, (root_ / c).string());
    auto tree = make_tree_v1(settings_, dirs);
    EXPECT_EQ(tree->describe(), "cgroup v1 (freezer devices) under " + root_.string());

    tree->limit(step_, limits(0, "", "/dev/null")); // a character device, 1:3
    EXPECT_EQ(content("devices" + step + "/devices.deny"), "c 1:3 rwm");
    file("regular", "not-a-device");
    const std::string plain = (root_ / "regular" / "not-a-device").string();
    EXPECT_EQ(limit_error(*tree, limits(0, "", "/dev/null," + plain)),
              "-22 job 7 step 0: ConstrainDevices: " + plain + ": not a device file");
    EXPECT_EQ(limit_error(*tree, limits(0, "", "/dev/nonexistent-drover")),
              "-22 job 7 step 0: ConstrainDevices: /dev/nonexistent-drover: "
              "No such file or directory");
    EXPECT_EQ(limit_error(*tree, limits(0, "", "dev/null")),
              "-22 job 7 step 0: ConstrainDevices: dev/null: not an absolute path");

    // Without ConstrainDevices nothing is denied, and no path is even looked at.
    fs::remove(root_ / ("devices" + step) / "devices.deny");
    file("devices" + step, "devices.deny");
    settings_.constrain_devices = false;
    tree = make_tree_v1(settings_, dirs);
    EXPECT_EQ(limit_error(*tree, limits(0, "", "/dev/nonexistent-drover")), "(no error)");
    EXPECT_EQ(content("devices" + step + "/devices.deny"), "");
}

// A limits table from before ABI 1.6 has no deny_devices: nothing is denied.
TEST_F(FakeHierarchy, V2ReadsDenyDevicesOnlyWhenTheTableHasIt) {
    settings_.constrain_devices = true;
    file("drover/c1/n1/job_7/step_0", "cpuset.cpus");
    auto tree = make_tree_v2(settings_);
    drover_cont_limits old = limits(0, "", "/dev/nonexistent-drover");
    old.struct_size = offsetof(drover_cont_limits, deny_devices);
    EXPECT_EQ(limit_error(*tree, old), "(no error)");
    EXPECT_EQ(limit_error(*tree, limits(0, "", "/dev/nonexistent-drover")),
              "-22 job 7 step 0: ConstrainDevices: /dev/nonexistent-drover: "
              "No such file or directory");
}

TEST(CgroupSettings, MemoryLimitIsAllowedRamSpacePercent) {
    Settings s;
    EXPECT_EQ(s.memory_limit(1000), 1000u);
    s.allowed_ram_percent = 101.5;
    EXPECT_EQ(s.memory_limit(1000), 1015u);
    s.allowed_ram_percent = 10000;
    EXPECT_EQ(s.memory_limit(UINT64_MAX / 2), UINT64_MAX);
    EXPECT_FALSE(s.limits_memory());
    s.constrain_swap = true;
    EXPECT_TRUE(s.limits_memory());
}

} // namespace
} // namespace drover::cgroup
