// task_scripts_test.cpp - task prologs and epilogs: which run, in which order, and what a
// prolog's output does to the task's environment (Slurm's export, unset and print lines).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/config.hpp"
#include "noded/task_scripts.hpp"

namespace drover::noded {
namespace {

using Env = std::vector<std::string>;

TEST(TaskScripts, SlurmConfsFirstBeforeTheTaskAndLastAfterIt) {
    Config conf;
    conf.raw["taskprolog"] = "/site/prolog";
    conf.raw["taskepilog"] = "/site/epilog";
    TaskScripts s = task_scripts(conf, {"SLURM_TASK_PROLOG=/u/pro", "SLURM_TASK_EPILOG=/u/epi"});
    EXPECT_EQ(s.prologs, (Env{"/site/prolog", "/u/pro"}));
    EXPECT_EQ(s.epilogs, (Env{"/u/epi", "/site/epilog"}));
    TaskScripts none = task_scripts(Config{}, {"HOME=/root"});
    EXPECT_TRUE(none.prologs.empty() && none.epilogs.empty());
}

TEST(TaskScripts, APrologsLinesChangeTheEnvironmentOrArePrinted) {
    Env env{"HOME=/root", "KEEP=1", "DROP=2"};
    std::string printed = apply_prolog_output("export NEW=a b=c\n"
                                              "export KEEP=changed\n"
                                              "unset DROP\n"
                                              "print hello from the prolog\n"
                                              "something else\n"
                                              "export =bad\n"
                                              "print last",
                                              env);
    EXPECT_EQ(printed, "hello from the prolog\nlast\n");
    EXPECT_EQ(env, (Env{"HOME=/root", "NEW=a b=c", "KEEP=changed"}));
}

TEST(TaskScripts, PrologsRunInTurnEachSeeingWhatTheLastExported) {
    auto dir =
        std::filesystem::temp_directory_path() / ("task_scripts." + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto write = [&](const char *name, const char *text) {
        auto path = dir / name;
        std::ofstream(path) << text;
        std::filesystem::permissions(path, std::filesystem::perms::owner_all);
        return path.string();
    };
    std::string first = write("first", "#!/bin/sh\necho export STAGE=one\n");
    std::string second = write("second", "#!/bin/sh\necho export SEEN=$STAGE\necho unset STAGE\n");
    Env env{"PATH=/usr/bin:/bin"};
    run_task_prologs({first, second}, env);
    EXPECT_EQ(env, (Env{"PATH=/usr/bin:/bin", "SEEN=one"}));
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace drover::noded
