// cgroup_conf_test.cpp - cgroup.conf: Slurm's defaults, the keys proctrack/cgroup reads, errors
// that name file and line, and loading from beside slurm.conf.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/config.hpp"
#include "common/error.hpp"

namespace drover {
namespace {

namespace fs = std::filesystem;

Config cgroup(const std::string &text) {
    Config c;
    parse_cgroup_conf(text, "cgroup.conf", c);
    return c;
}

std::string error_of(const std::string &text) {
    try {
        cgroup(text);
    } catch (const ParseError &e) {
        return e.what();
    }
    return "(no error)";
}

TEST(CgroupConf, SlurmDefaults) {
    Config c = cgroup("");
    EXPECT_EQ(c.cgroup.mountpoint, "/sys/fs/cgroup");
    EXPECT_EQ(c.cgroup.plugin, "autodetect");
    EXPECT_FALSE(c.cgroup.constrain_ram_space);
    EXPECT_FALSE(c.cgroup.constrain_swap_space);
    EXPECT_FALSE(c.cgroup.constrain_cores);
    EXPECT_FALSE(c.cgroup.constrain_devices);
    EXPECT_DOUBLE_EQ(c.cgroup.allowed_ram_space, 100.0);
    EXPECT_EQ(parse_config("", "slurm.conf").cgroup.path, "");
}

TEST(CgroupConf, KeysReachConfAndRaw) {
    Config c = cgroup("# site cgroup.conf\n"
                      "CgroupPlugin=cgroup/V1\n"
                      "cgroupmountpoint = /cg/\n"
                      "ConstrainRAMSpace=YES ConstrainCores=true\n"
                      "ConstrainSwapSpace=no\n"
                      "AllowedRAMSpace=101.5\n");
    EXPECT_EQ(c.cgroup.path, "cgroup.conf");
    EXPECT_EQ(c.cgroup.plugin, "cgroup/v1");
    EXPECT_EQ(c.cgroup.mountpoint, "/cg");
    EXPECT_TRUE(c.cgroup.constrain_ram_space);
    EXPECT_TRUE(c.cgroup.constrain_cores);
    EXPECT_FALSE(c.cgroup.constrain_swap_space);
    EXPECT_DOUBLE_EQ(c.cgroup.allowed_ram_space, 101.5);
    EXPECT_EQ(c.raw.at("cgroup.constrainramspace"), "yes");
    EXPECT_EQ(c.raw.at("cgroup.constraincores"), "yes");
    EXPECT_EQ(c.raw.at("cgroup.constrainswapspace"), "no");
    EXPECT_EQ(c.raw.at("cgroup.cgroupplugin"), "cgroup/v1");
    EXPECT_EQ(c.raw.at("cgroup.cgroupmountpoint"), "/cg");
    EXPECT_EQ(c.raw.at("cgroup.allowedramspace"), "101.5");
    EXPECT_TRUE(c.warnings.empty());
}

TEST(CgroupConf, ConstrainDevicesIsHandedToThePlugin) {
    Config c = cgroup("constraindevices=Yes\n");
    EXPECT_TRUE(c.cgroup.constrain_devices);
    EXPECT_EQ(c.raw.at("cgroup.constraindevices"), "yes");
    EXPECT_TRUE(c.warnings.empty());
    c = cgroup("ConstrainDevices=yes\nConstrainDevices=false\n"); // the last one counts
    EXPECT_FALSE(c.cgroup.constrain_devices);
    EXPECT_EQ(c.raw.at("cgroup.constraindevices"), "no");
    EXPECT_NE(error_of("ConstrainDevices=gpus\n")
                  .find("cgroup.conf:1: bad value for ConstrainDevices: 'gpus'"),
              std::string::npos)
        << error_of("ConstrainDevices=gpus\n");
}

TEST(CgroupConf, KeysDroverDoesNotUseAreWarnings) {
    Config c = cgroup("ConstrainKmemSpace=yes\nAllowedSwapSpace=0\nConstrainKmemSpace=no\n");
    ASSERT_EQ(c.warnings.size(), 2u);
    EXPECT_EQ(c.warnings[0], "cgroup.conf:1: ConstrainKmemSpace is not used by Drover, ignored");
    EXPECT_EQ(c.raw.at("cgroup.constrainkmemspace"), "no");
}

TEST(CgroupConf, ErrorsNameFileAndLine) {
    struct Case {
        const char *text, *want;
    } cases[] = {
        {"\nConstrainRAMSpace=maybe\n", "cgroup.conf:2: bad value for ConstrainRAMSpace: 'maybe'"},
        {"CgroupPlugin=cgroup/v3\n", "cgroup.conf:1: bad value for CgroupPlugin: 'cgroup/v3'"},
        {"AllowedRAMSpace=0\n", "cgroup.conf:1: bad value for AllowedRAMSpace"},
        {"AllowedRAMSpace=-5\n", "cgroup.conf:1: bad value for AllowedRAMSpace"},
        {"AllowedRAMSpace=1e3\n", "cgroup.conf:1: bad value for AllowedRAMSpace"},
        {"AllowedRAMSpace=100.\n", "cgroup.conf:1: bad value for AllowedRAMSpace"},
        {"AllowedRAMSpace=20000\n", "at most 10000"},
        {"CgroupMountpoint=sys/fs\n", "cgroup.conf:1: bad value for CgroupMountpoint"},
        {"ConstrainCores\n", "cgroup.conf:1: expected Key=Value"},
        {"# a\n\\\nConstrainCores=\"yes\n", "cgroup.conf:2: unbalanced"},
    };
    for (const auto &c : cases)
        EXPECT_NE(error_of(c.text).find(c.want), std::string::npos)
            << "input: " << c.text << "\n got: " << error_of(c.text);
}

class CgroupConfFile : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("drover-cgconf-test-" + std::to_string(::getpid()));
        fs::create_directories(dir_);
        std::ofstream(dir_ / "slurm.conf") << "ClusterName=x\n";
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string slurm_conf() const { return (dir_ / "slurm.conf").string(); }
    fs::path dir_;
};

TEST_F(CgroupConfFile, ReadBesideSlurmConf) {
    std::ofstream(dir_ / "cgroup.conf") << "ConstrainRAMSpace=yes\nAllowedRAMSpace=90\n";
    Config c = load_config(slurm_conf());
    EXPECT_EQ(c.cgroup.path, (dir_ / "cgroup.conf").string());
    EXPECT_TRUE(c.cgroup.constrain_ram_space);
    EXPECT_DOUBLE_EQ(c.cgroup.allowed_ram_space, 90.0);
    EXPECT_EQ(c.raw.at("cgroup.constrainramspace"), "yes");
}

TEST_F(CgroupConfFile, AbsentIsDefaults) {
    Config c = load_config(slurm_conf());
    EXPECT_EQ(c.cgroup.path, "");
    EXPECT_FALSE(c.cgroup.constrain_ram_space);
    EXPECT_EQ(c.raw.count("cgroup.constrainramspace"), 0u);
}

TEST_F(CgroupConfFile, BadLineNamesThePath) {
    std::ofstream(dir_ / "cgroup.conf") << "ConstrainCores=yes\nConstrainCores=often\n";
    try {
        load_config(slurm_conf());
        FAIL() << "no error";
    } catch (const ParseError &e) {
        EXPECT_EQ(std::string(e.what()).rfind((dir_ / "cgroup.conf").string() + ":2: bad value", 0),
                  0u)
            << e.what();
    }
}

TEST_F(CgroupConfFile, UnreadableNamesThePath) {
    fs::create_directories(dir_ / "cgroup.conf"); // a directory cannot be read as a file
    try {
        load_config(slurm_conf());
        FAIL() << "no error";
    } catch (const ParseError &e) {
        EXPECT_EQ(std::string(e.what()).rfind((dir_ / "cgroup.conf").string() + ": cannot read", 0),
                  0u)
            << e.what();
    }
}

} // namespace
} // namespace drover
