// env_options_test.cpp - input environment variables read as options (SQUEUE_*, SINFO_*,
// SACCT_FORMAT, SCANCEL_*), and the command line overriding them.
#include <drover/views.h>
#include <gtest/gtest.h>

#include <functional>

#include "cli/env_options.hpp"
#include "cli/sacct_args.hpp"
#include "cli/scancel_args.hpp"
#include "cli/sinfo_args.hpp"
#include "cli/squeue_args.hpp"
#include "common/error.hpp"

using namespace drover;
using namespace drover::cli;

namespace {

using Args = std::vector<std::string>;

std::string error_of(const std::function<void()> &fn) {
    try {
        fn();
    } catch (const std::exception &e) {
        return e.what();
    }
    return "no error";
}

enum { kFmt, kLongFmt, kLong, kFlag, kYes };
const EnvOption kTable[] = {
    {"T_FORMAT", kFmt, EnvValue::as_is, {kLong}},
    {"T_FORMAT2", kLongFmt, EnvValue::as_is, {kFmt}},
    {"T_FLAG", kFlag, EnvValue::presence},
    {"T_YES", kYes, EnvValue::true_false},
};

} // namespace

TEST(EnvOptions, ValuesFlagsAndOverrides) {
    EnvVars env = {{"T_FORMAT", "%i"}, {"T_FLAG", ""}, {"T_YES", "T"}, {"OTHER", "x"}};
    auto opts = env_options(env, kTable, {});
    ASSERT_EQ(opts.size(), 3u);
    EXPECT_EQ(opts[0].id, kFmt);
    EXPECT_EQ(opts[0].value, "%i");
    EXPECT_EQ(opts[0].spelled, "T_FORMAT");
    EXPECT_EQ(opts[1].id, kFlag);
    EXPECT_FALSE(opts[1].value); // a flag, whatever the value
    EXPECT_EQ(opts[2].id, kYes);

    // The option itself, or one that overrides the variable, on the command line.
    std::vector<ParsedOpt> given = {{kLong, std::nullopt, "-l"}};
    opts = env_options({{"T_FORMAT", "%i"}, {"T_FORMAT2", "jobid"}}, kTable, given);
    ASSERT_EQ(opts.size(), 1u);
    EXPECT_EQ(opts[0].id, kLongFmt);
    // A variable taken earlier in the table overrides a later one.
    opts = env_options({{"T_FORMAT", "%i"}, {"T_FORMAT2", "jobid"}}, kTable, {});
    ASSERT_EQ(opts.size(), 1u);
    EXPECT_EQ(opts[0].id, kFmt);

    EXPECT_TRUE(env_options({{"T_YES", "false"}}, kTable, {}).empty());
    EXPECT_TRUE(env_options({{"T_YES", "f"}}, kTable, {}).empty());
    EXPECT_EQ(env_options({{"T_YES", "TRUE"}}, kTable, {}).size(), 1u);
    EXPECT_EQ(error_of([] {
                  env_options({{"T_YES", "maybe"}}, kTable, {});
              }),
              "Unrecognized T_YES value: maybe");
    // The last setting of a name is the one that counts.
    EXPECT_EQ(*env_value({{"A", "1"}, {"A", "2"}}, "A"), "2");
    EXPECT_EQ(env_value({{"A", "1"}}, "B"), nullptr);
}

TEST(EnvOptions, Squeue) {
    EnvVars env = {{"SQUEUE_FORMAT", "%i %T"}, {"SQUEUE_SORT", "-i"},   {"SQUEUE_STATES", "all"},
                   {"SQUEUE_ACCOUNT", "a,b"},  {"SQUEUE_NAMES", "x"},   {"SQUEUE_PARTITION", "p"},
                   {"SQUEUE_QOS", "high"},     {"SQUEUE_USERS", "root"}};
    SqueueArgs a = parse_squeue_args(Args{}, env);
    EXPECT_EQ(a.format, "%i %T");
    EXPECT_EQ(a.sort, "-i");
    EXPECT_TRUE(a.states.all);
    EXPECT_EQ(a.accounts, (Args{"a", "b"}));
    EXPECT_EQ(a.names, Args{"x"});
    EXPECT_EQ(a.partitions, Args{"p"});
    EXPECT_EQ(a.qos, Args{"high"});
    EXPECT_EQ(a.users, Args{"root"});

    // The command line wins, option by option; -l, -O and --start keep SQUEUE_FORMAT out.
    a = parse_squeue_args(Args{"-S", "P", "-t", "R", "-A", "c", "-p", "q", "--me"}, env);
    EXPECT_EQ(a.sort, "P");
    EXPECT_FALSE(a.states.all);
    EXPECT_EQ(a.accounts, Args{"c"});
    EXPECT_EQ(a.partitions, Args{"q"});
    EXPECT_TRUE(a.users.empty());
    EXPECT_EQ(parse_squeue_args(Args{"-o", "%j"}, env).format, "%j");
    for (const char *layout : {"-l", "--start"}) {
        SqueueArgs b = parse_squeue_args(Args{layout}, env);
        EXPECT_FALSE(b.format) << layout;
        EXPECT_FALSE(b.long_fmt) << layout;
    }
    SqueueArgs b = parse_squeue_args(Args{"-O", "jobid"}, env);
    EXPECT_FALSE(b.format);
    EXPECT_EQ(b.long_fmt, "jobid");

    // SQUEUE_FORMAT2 is -O, unless SQUEUE_FORMAT is set too.
    EXPECT_EQ(parse_squeue_args(Args{}, {{"SQUEUE_FORMAT2", "name:10"}}).long_fmt, "name:10");
    a = parse_squeue_args(Args{}, {{"SQUEUE_FORMAT2", "name"}, {"SQUEUE_FORMAT", "%i"}});
    EXPECT_EQ(a.format, "%i");
    EXPECT_FALSE(a.long_fmt);
    // Flags by presence (SQUEUE_ARRAY is -r).
    EXPECT_TRUE(parse_squeue_args(Args{}, {{"SQUEUE_ARRAY", "0"}}).array);
    EXPECT_THROW(parse_squeue_args(Args{}, {{"SQUEUE_STATES", "bogus"}}), ParseError);
}

TEST(EnvOptions, Sinfo) {
    SinfoArgs a = parse_sinfo_args(
        Args{},
        {{"SINFO_FORMAT", "%P %D"}, {"SINFO_SORT", "-P"}, {"SINFO_PARTITION", "debug,long"}});
    EXPECT_EQ(sinfo_format_string(a), "%P %D");
    EXPECT_EQ(a.sort, "-P");
    EXPECT_EQ(a.partitions, (Args{"debug", "long"}));
    // -l keeps SINFO_FORMAT; -o, -O, -s, -N and -R do not.
    EXPECT_EQ(sinfo_format_string(parse_sinfo_args(Args{"-l"}, {{"SINFO_FORMAT", "%N"}})), "%N");
    EXPECT_EQ(sinfo_format_string(parse_sinfo_args(Args{"-s"}, {{"SINFO_FORMAT", "%N"}})),
              kSinfoSummarizeFormat);
    EXPECT_EQ(sinfo_format_string(parse_sinfo_args(Args{"-N"}, {{"SINFO_FORMAT", "%N"}})),
              kSinfoNodeFormat);
    EXPECT_FALSE(parse_sinfo_args(Args{"-O", "nodes"}, {{"SINFO_FORMAT", "%N"}}).format);
    // -a drops SINFO_PARTITION; -p replaces it.
    EXPECT_TRUE(parse_sinfo_args(Args{"-a"}, {{"SINFO_PARTITION", "x"}}).partitions.empty());
    EXPECT_EQ(parse_sinfo_args(Args{"-p", "y"}, {{"SINFO_PARTITION", "x"}}).partitions, Args{"y"});
    EXPECT_EQ(error_of([] {
                  parse_sinfo_args(Args{}, {{"SINFO_ALL", ""}, {"SINFO_PARTITION", "x"}});
              }),
              "Conflicting options, SINFO_ALL and SINFO_PARTITION, specified. Please choose one "
              "or the other.");
    EXPECT_EQ(error_of([] {
                  parse_sinfo_args(Args{"-a", "-p", "x"});
              }),
              "Conflicting options, -a and -p, specified. Please choose one or the other.");
}

TEST(EnvOptions, SacctFormat) {
    EnvVars env = {{"SACCT_FORMAT", "JobID,State"}};
    EXPECT_EQ(parse_sacct_args(Args{}, env).format, "JobID,State");
    EXPECT_EQ(parse_sacct_args(Args{"-o", "User"}, env).format, "User");
    EXPECT_FALSE(parse_sacct_args(Args{"-b"}, env).format);
    EXPECT_FALSE(parse_sacct_args(Args{"--long"}, env).format);
}

TEST(EnvOptions, Scancel) {
    EnvVars env = {{"SCANCEL_ACCOUNT", "Physics"}, {"SCANCEL_BATCH", "true"},
                   {"SCANCEL_FULL", "F"},          {"SCANCEL_INTERACTIVE", "T"},
                   {"SCANCEL_NAME", "x"},          {"SCANCEL_PARTITION", "p"},
                   {"SCANCEL_QOS", "High"},        {"SCANCEL_STATE", "PENDING"},
                   {"SCANCEL_USER", "alice"},      {"SCANCEL_VERBOSE", "true"}};
    ScancelArgs a = parse_scancel_args(Args{}, env);
    EXPECT_EQ(a.account, "physics"); // lowercased, as Slurm's scancel takes it
    EXPECT_TRUE(a.batch);
    EXPECT_FALSE(a.full);
    EXPECT_TRUE(a.interactive);
    EXPECT_EQ(a.name, "x");
    EXPECT_EQ(a.partition, "p");
    EXPECT_EQ(a.qos, "high");
    EXPECT_EQ(a.states, std::vector<uint32_t>{DROVER_JOB_PENDING});
    EXPECT_EQ(a.user, "alice");
    EXPECT_EQ(a.verbose, 1);

    a = parse_scancel_args(Args{"--me", "--jobname", "y", "-t", "R", "-vv", "-A", "chem"}, env);
    EXPECT_FALSE(a.user);
    EXPECT_EQ(a.name, "y");
    EXPECT_EQ(a.states, std::vector<uint32_t>{DROVER_JOB_RUNNING});
    EXPECT_EQ(a.verbose, 2);
    EXPECT_EQ(a.account, "chem");
    EXPECT_EQ(parse_scancel_args(Args{"-Q"}, {{"SCANCEL_VERBOSE", "T"}}).verbose, 0);

    EXPECT_EQ(error_of([] {
                  parse_scancel_args(Args{}, {{"SCANCEL_BATCH", "yes"}});
              }),
              "Unrecognized SCANCEL_BATCH value: yes");
    EXPECT_EQ(error_of([] {
                  parse_scancel_args(Args{}, {{"SCANCEL_STATE", "DONE"}});
              }),
              "Unrecognized SCANCEL_STATE value: DONE");
    EXPECT_EQ(error_of([] {
                  parse_scancel_args(Args{"-t", "DONE"});
              }),
              "Invalid job state specified: DONE");
}
