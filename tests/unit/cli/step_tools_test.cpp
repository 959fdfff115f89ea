// step_tools_test.cpp - sbcast's and sattach's command lines, as Slurm's man pages describe them:
// sbcast's options and SBCAST_* variables, where DEST lands, and the step sattach attaches to.
#include <gtest/gtest.h>

#include "cli/options.hpp"
#include "cli/sattach_args.hpp"
#include "cli/sbcast_args.hpp"
#include "common/bcast_path.hpp"
#include "common/error.hpp"

using drover::ParseError;
using drover::cli::parse_sattach_args;
using drover::cli::parse_sbcast_args;
using Env = std::vector<std::pair<std::string, std::string>>;

namespace {
std::string parse_error(const std::function<void()> &f) {
    try {
        f();
    } catch (const ParseError &e) {
        return e.what();
    }
    return "(no error)";
}
} // namespace

TEST(Sbcast, OptionsAndJobFromEnvironment) {
    auto a = parse_sbcast_args(std::vector<std::string>{"-f", "-p", "-F", "4", "-s", "1m", "-t",
                                                        "20", "-Clz4", "a.out", "/tmp/a.out"},
                               Env{{"SLURM_JOB_ID", "42"}});
    EXPECT_EQ(a.job_id, 42u);
    EXPECT_EQ(a.step_id, 0xfffffffeu);
    EXPECT_TRUE(a.force && a.preserve);
    EXPECT_EQ(a.fanout, 4u);
    EXPECT_EQ(a.block_size, 1u << 20);
    EXPECT_EQ(a.timeout_ms, 20000u);
    EXPECT_EQ(a.compress, "lz4");
    EXPECT_EQ(a.source, "a.out");
    EXPECT_EQ(a.dest, "/tmp/a.out");
}

TEST(Sbcast, JobOptionBeatsEnvironmentAndNamesAStep) {
    auto a = parse_sbcast_args(std::vector<std::string>{"--jobid=7.3", "x", "/y"},
                               Env{{"SLURM_JOB_ID", "42"}});
    EXPECT_EQ(a.job_id, 7u);
    EXPECT_EQ(a.step_id, 3u);
    EXPECT_EQ(parse_error([] {
                  parse_sbcast_args(std::vector<std::string>{"-j", "abc", "x", "/y"}, {});
              }),
              "Invalid job id abc");
}

TEST(Sbcast, VariablesSetDefaultsTheCommandLineOverrides) {
    Env env{{"SLURM_JOB_ID", "5"},    {"SBCAST_FORCE", ""},    {"SBCAST_PRESERVE", "1"},
            {"SBCAST_FANOUT", "3"},   {"SBCAST_SIZE", "512k"}, {"SBCAST_TIMEOUT", "7"},
            {"SBCAST_SEND_LIBS", "x"}};
    auto a = parse_sbcast_args(std::vector<std::string>{"-F", "2", "x", "/y"}, env);
    EXPECT_TRUE(a.force && a.preserve);
    EXPECT_EQ(a.fanout, 2u);
    EXPECT_EQ(a.block_size, 512u * 1024);
    EXPECT_EQ(a.timeout_ms, 7000u);
    ASSERT_EQ(a.warnings.size(), 1u);
    EXPECT_EQ(a.warnings[0], "Ignoring unrecognized SBCAST_SEND_LIBS value 'x'");
}

TEST(Sbcast, BadSizeIsIgnoredWithAWarning) {
    auto a = parse_sbcast_args(std::vector<std::string>{"-s", "12q", "x", "/y"},
                               Env{{"SLURM_JOB_ID", "5"}});
    EXPECT_EQ(a.block_size, 8u << 20);
    ASSERT_EQ(a.warnings.size(), 1u);
    EXPECT_EQ(a.warnings[0], "size specification is invalid, ignored");
}

TEST(Sbcast, RefusalsInSlurmsWords) {
    EXPECT_EQ(parse_error([] {
                  parse_sbcast_args(std::vector<std::string>{"only"}, {{"SLURM_JOB_ID", "1"}});
              }),
              "Need two file names, have 1 names");
    EXPECT_EQ(parse_error([] {
                  parse_sbcast_args(std::vector<std::string>{"x", "/y"}, {});
              }),
              "Need a job id to run this command.  Run from within a Slurm job or use the "
              "--jobid option.");
    EXPECT_THROW(parse_sbcast_args(std::vector<std::string>{"--bogus", "x", "/y"}, {}),
                 drover::cli::UsageError);
}

TEST(Sbcast, DestinationResolution) {
    using drover::cli::resolve_bcast_dest;
    EXPECT_EQ(resolve_bcast_dest("/abs/f", "DestDir=/scratch", "/home/u"), "/abs/f");
    EXPECT_EQ(resolve_bcast_dest("f", "", "/home/u"), "/home/u/f");
    EXPECT_EQ(resolve_bcast_dest("f", "Compression=none,destdir=/scratch", "/home/u"),
              "/scratch/f");
    EXPECT_EQ(parse_error([] { resolve_bcast_dest("/tmp/dir/", "", "/"); }),
              "Target filename cannot be a directory.");
}

TEST(Sbcast, CopiesIntoADirectoryAreNamedPerNode) {
    EXPECT_EQ(drover::bcast_path("/tmp/", 12, 3, "n1"), "/tmp/slurm_bcast_12.3_n1");
    EXPECT_EQ(drover::bcast_path("/tmp/prog", 12, 3, "n1"), "/tmp/prog");
}

TEST(Sattach, StepAndOptions) {
    auto a = parse_sattach_args(std::vector<std::string>{"-l", "--output-filter=2", "12.1"});
    EXPECT_EQ(a.job_id, 12u);
    EXPECT_EQ(a.step_id, 1u);
    EXPECT_TRUE(a.label);
    EXPECT_EQ(a.output_filter, 2u);
    EXPECT_EQ(a.error_filter, 2u); // an output filter alone filters stderr too
    EXPECT_FALSE(a.input_filter);
    auto b = parse_sattach_args(
        std::vector<std::string>{"--output-filter=-", "--error-filter=1", "5.0"});
    EXPECT_FALSE(b.output_filter);
    EXPECT_EQ(b.error_filter, 1u);
}

TEST(Sattach, RefusalsInSlurmsWords) {
    auto err = [](std::vector<std::string> args) {
        return parse_error([&] { parse_sattach_args(args); });
    };
    EXPECT_EQ(err({}), "too many parameters");
    EXPECT_EQ(err({"1.0", "2.0"}), "too many parameters");
    EXPECT_EQ(err({"15"}), "Failed to parse stepid from command line options");
    EXPECT_EQ(err({"--output-filter=x", "1.0"}), "Invalid numeric value \"x\" for output-filter.");
    EXPECT_EQ(err({"--pty", "--input-filter=0", "1.0"}),
              "don't specify both --pty and I/O filtering");
    EXPECT_EQ(err({"-v", "-Q", "1.0"}), "don't specify both --verbose (-v) and --quiet (-Q)");
}
