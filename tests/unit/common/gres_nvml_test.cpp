// gres_nvml_test.cpp - AutoDetect=nvml against a fake libnvidia-ml (fake_nvml.c, built beside this
// test as FAKE_NVML_LIBRARY): types, device files, CPU affinity and UUIDs of its two GPUs, what
// NVML failures give, and gres_for_this_node's fallback to the /dev scan when NVML is missing.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <stdlib.h>
#include <unistd.h>

#include "common/gres.hpp"
#include "common/gres_nvml.hpp"

namespace drover {
namespace {

using Strings = std::vector<std::string>;

constexpr const char *kFake = FAKE_NVML_LIBRARY;

// Sets FAKE_NVML_FAIL for one test (the fake reads it on each call).
struct FakeFails {
    explicit FakeFails(const char *what) { ::setenv("FAKE_NVML_FAIL", what, 1); }
    ~FakeFails() { ::unsetenv("FAKE_NVML_FAIL"); }
};

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

TEST(GresNvml, TypeAsSlurmFormsIt) {
    EXPECT_EQ(nvml_gpu_type("NVIDIA A100-SXM4-40GB"), "nvidia_a100-sxm4-40gb");
    EXPECT_EQ(nvml_gpu_type("Tesla V100-PCIE-16GB"), "tesla_v100-pcie-16gb");
    EXPECT_EQ(nvml_gpu_type("NVIDIA H100 80GB HBM3"), "nvidia_h100_80gb_hbm3");
    EXPECT_EQ(nvml_gpu_type("Quadro RTX 6000/8000 (x):1,2"), "quadro_rtx_6000_8000__x__1_2");
    EXPECT_EQ(nvml_gpu_type(""), "");
}

TEST(GresNvml, ReadsEveryGpu) {
    NvmlDetection d = gres_detect_nvml(kFake);
    ASSERT_TRUE(d.gpus) << d.error;
    EXPECT_TRUE(d.warnings.empty());
    ASSERT_EQ(d.gpus->size(), 2u);
    const GresDevice &a = (*d.gpus)[0], &b = (*d.gpus)[1];
    EXPECT_EQ(a.name, "gpu");
    EXPECT_EQ(a.type, "nvidia_a100-sxm4-40gb");
    EXPECT_EQ(a.count, 1u);
    EXPECT_EQ(a.files, (Strings{"/dev/nvidia0"}));
    EXPECT_EQ(a.cores, "0-15,32-47");
    EXPECT_EQ(a.unique_id, "GPU-11111111-2222-3333-4444-555555555555");
    EXPECT_EQ(b.type, "nvidia_a100-sxm4-40gb");
    EXPECT_EQ(b.files, (Strings{"/dev/nvidia3"}));
    EXPECT_EQ(b.cores, "16-31,48-64");
    EXPECT_EQ(b.unique_id, "GPU-66666666-7777-8888-9999-000000000000");
}

TEST(GresNvml, PartialAnswersAreWarnedAbout) {
    {
        FakeFails f("affinity");
        NvmlDetection d = gres_detect_nvml(kFake);
        ASSERT_TRUE(d.gpus) << d.error;
        ASSERT_EQ(d.gpus->size(), 2u);
        EXPECT_EQ((*d.gpus)[0].cores, "");
        ASSERT_EQ(d.warnings.size(), 2u);
        EXPECT_EQ(d.warnings[0],
                  "NVML GPU 0: no CPU affinity: Not Supported; usable from any core");
    }
    FakeFails f("minor");
    NvmlDetection d = gres_detect_nvml(kFake);
    ASSERT_TRUE(d.gpus) << d.error;
    ASSERT_EQ(d.gpus->size(), 1u);
    EXPECT_EQ((*d.gpus)[0].files, (Strings{"/dev/nvidia0"}));
    EXPECT_EQ(d.warnings, (Strings{"NVML GPU 1: no minor number: Not Supported; skipped"}));
}

TEST(GresNvml, FailuresSayWhy) {
    NvmlDetection missing = gres_detect_nvml("/nonexistent/libnvidia-ml.so.1");
    EXPECT_FALSE(missing.gpus);
    EXPECT_TRUE(contains(missing.error, "cannot load NVML: /nonexistent/libnvidia-ml.so.1"))
        << missing.error;

    NvmlDetection not_nvml = gres_detect_nvml("libm.so.6");
    EXPECT_FALSE(not_nvml.gpus);
    EXPECT_EQ(not_nvml.error, "cannot load NVML: libm.so.6 has no nvmlInit_v2");

    FakeFails f("init");
    NvmlDetection no_driver = gres_detect_nvml(kFake);
    EXPECT_FALSE(no_driver.gpus);
    EXPECT_EQ(no_driver.error, "NVML did not start: Driver Not Loaded");
}

class GresNvmlNode : public ::testing::Test {
  protected:
    void SetUp() override {
        char tmpl[] = "/tmp/drover-gres-nvml-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
        for (const char *f : files_) std::ofstream(dir_ + "/" + f) << "";
    }
    void TearDown() override {
        for (const char *f : files_) ::unlink((dir_ + "/" + f).c_str());
        ::rmdir(dir_.c_str());
    }
    std::string dir_;
    const char *files_[2] = {"nvidia0", "nvidia1"};
};

TEST_F(GresNvmlNode, NvmlGpusJoinGresConf) {
    // gres.conf names /dev/nvidia3 itself: only NVML's other GPU is added, typed.
    GresConf c =
        parse_gres_conf("AutoDetect=nvml\nNodeName=me Name=gpu Type=big File=/dev/nvidia3\n"
                        "Name=nic Count=2\n");
    Strings warnings;
    auto mine = gres_for_this_node(c, "me", dir_, &warnings, kFake);
    EXPECT_TRUE(warnings.empty());
    ASSERT_EQ(mine.size(), 3u);
    EXPECT_EQ(mine[0].type, "big");
    EXPECT_EQ(mine[1].name, "nic");
    EXPECT_EQ(mine[2].files, (Strings{"/dev/nvidia0"}));
    EXPECT_EQ(mine[2].type, "nvidia_a100-sxm4-40gb");
    EXPECT_EQ(mine[2].cores, "0-15,32-47");
}

TEST_F(GresNvmlNode, MissingNvmlFallsBackToDeviceFiles) {
    GresConf c = parse_gres_conf("AutoDetect=nvml\n");
    Strings warnings;
    auto mine = gres_for_this_node(c, "me", dir_, &warnings, "/nonexistent/libnvidia-ml.so.1");
    ASSERT_EQ(mine.size(), 2u);
    EXPECT_EQ(mine[0].files, (Strings{dir_ + "/nvidia0"}));
    EXPECT_EQ(mine[1].files, (Strings{dir_ + "/nvidia1"}));
    EXPECT_EQ(mine[0].type, "");
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_TRUE(contains(warnings[0], "AutoDetect=nvml: cannot load NVML: /nonexistent/"))
        << warnings[0];
    EXPECT_TRUE(contains(warnings[0], "; looking for " + dir_ + "/nvidia<N> device files instead"))
        << warnings[0];
    // Without a place for warnings it falls back all the same.
    EXPECT_EQ(gres_for_this_node(c, "me", dir_, nullptr, "/nonexistent/x.so").size(), 2u);
}

TEST_F(GresNvmlNode, NvidiaModeNeverAsksNvml) {
    GresConf c = parse_gres_conf("AutoDetect=nvidia\n");
    Strings warnings;
    auto mine = gres_for_this_node(c, "me", dir_, &warnings, kFake);
    EXPECT_TRUE(warnings.empty());
    ASSERT_EQ(mine.size(), 2u);
    EXPECT_EQ(mine[1].files, (Strings{dir_ + "/nvidia1"}));
    EXPECT_EQ(mine[1].type, "");
}

} // namespace
} // namespace drover
