// gpu_bind_test.cpp - --gpu-bind forms and each task's GPUs, as srun's man page describes them.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/gpu_bind.hpp"

using namespace drover;
using Ids = std::vector<uint32_t>;

namespace {
TaskGpus task(const std::string &spec, const Ids &step, uint32_t local, bool relative = false) {
    return task_gpus(parse_gpu_bind(spec), step, local, relative);
}
} // namespace

TEST(GpuBind, ParsesEveryForm) {
    EXPECT_EQ(parse_gpu_bind("none").kind, GpuBind::Kind::None);
    EXPECT_EQ(parse_gpu_bind("closest").kind, GpuBind::Kind::Closest);
    GpuBind b = parse_gpu_bind("verbose,single:2");
    EXPECT_TRUE(b.verbose);
    EXPECT_EQ(b.kind, GpuBind::Kind::Single);
    EXPECT_EQ(b.count, 2u);
    EXPECT_EQ(parse_gpu_bind("per_task:3").count, 3u);
    EXPECT_EQ(parse_gpu_bind("map_gpu:0*2,1").list, (std::vector<uint64_t>{0, 0, 1}));
    EXPECT_EQ(parse_gpu_bind("mask_gpu:0x3,C").list, (std::vector<uint64_t>{3, 12}));
    EXPECT_TRUE(parse_gpu_bind("verbose").verbose);
}

TEST(GpuBind, RefusesWhatSlurmRefuses) {
    for (const char *bad :
         {"", "nearest", "single", "single:0", "per_task:x", "map_gpu:", "map_gpu:a", "map_gpu:64",
          "mask_gpu:0xg", "map_gpu:0*0", "none:1", "verbosenone", "map_gpu:1,,2"})
        EXPECT_THROW(parse_gpu_bind(bad), ParseError) << bad;
    try {
        parse_gpu_bind("nearest");
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "invalid --gpu-bind argument 'nearest': unknown binding");
    }
}

TEST(GpuBind, NoneAndClosestSeeEveryGpuOfTheStep) {
    EXPECT_EQ(task("none", {1, 3}, 1).visible, "1,3");
    EXPECT_EQ(task("closest", {1, 3}, 0).global, (Ids{1, 3}));
}

TEST(GpuBind, PerTaskGivesEachTaskItsOwnRun) {
    Ids step{0, 1, 2, 3};
    EXPECT_EQ(task("per_task:2", step, 0).visible, "0,1");
    EXPECT_EQ(task("per_task:2", step, 1).visible, "2,3");
    EXPECT_EQ(task("per_task:1", step, 5).visible, "1"); // more tasks than GPUs: round again
}

TEST(GpuBind, SingleSharesOneGpuAmongThatManyTasks) {
    Ids step{4, 5};
    EXPECT_EQ(task("single:2", step, 0).visible, "4");
    EXPECT_EQ(task("single:2", step, 1).visible, "4");
    EXPECT_EQ(task("single:2", step, 2).visible, "5");
}

TEST(GpuBind, MapAndMaskNameNodeIndexesUnlessDevicesAreConstrained) {
    Ids step{2, 3};
    EXPECT_EQ(task("map_gpu:3,2", step, 0).visible, "3");
    EXPECT_EQ(task("map_gpu:3,2", step, 3).visible, "2");
    EXPECT_EQ(task("mask_gpu:0xc", step, 0).visible, "2,3");
    // ConstrainDevices: ids count among the step's GPUs, and CUDA numbers them from 0.
    TaskGpus rel = task("map_gpu:1", step, 0, true);
    EXPECT_EQ(rel.global, (Ids{3}));
    EXPECT_EQ(rel.visible, "1");
    EXPECT_EQ(task("per_task:1", step, 1, true).visible, "1");
}

TEST(GpuBind, AnIdOutsideTheStepFallsBackToItsFirstGpu) {
    TaskGpus t = task("map_gpu:7", {2, 3}, 0);
    EXPECT_TRUE(t.outside_step);
    EXPECT_EQ(t.visible, "2");
}

TEST(GpuBind, VerboseLineHasSlurmsFields) {
    Ids step{0, 1};
    TaskGpus t = task("verbose,per_task:1", step, 1);
    EXPECT_EQ(gpu_bind_verbose_line(t, step, 1),
              "gpu-bind: usable_gres=0x2; bit_alloc=0x3; local_inx=1; global_list=1; "
              "local_list=1");
}

TEST(GpuBind, ClosestSeesTheGpusNearTheTasksCores) {
    // GPUs 0-1 near cores 0-1, GPU 2 near core 2, GPU 3 with no Cores= (near every core).
    std::vector<std::string> cores{"0-1", "[0-1]", "2", ""};
    Ids step{0, 1, 2, 3};
    EXPECT_EQ(gpus_near(step, cores, {0}), (Ids{0, 1, 3}));
    EXPECT_EQ(gpus_near(step, cores, {2}), (Ids{2, 3}));
    EXPECT_EQ(gpus_near({0, 2}, cores, {2}), (Ids{2}));
    EXPECT_EQ(gpus_near(step, cores, {}), (Ids{})); // an unbound task: near none in particular
    GpuBind b = parse_gpu_bind("closest");
    EXPECT_EQ(task_gpus(b, {0, 2}, 0, false, {2}).visible, "2");
    EXPECT_EQ(task_gpus(b, {0, 2}, 0, true, {2}).visible, "1"); // counted among the step's
    EXPECT_EQ(task_gpus(b, {0, 2}, 0, false, {}).visible, "0,2");
}
