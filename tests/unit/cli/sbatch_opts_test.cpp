// sbatch_opts_test.cpp - sbatch's options, #SBATCH directives, precedence, --export, refusals.
#include <gtest/gtest.h>

#include "cli/sbatch_opts.hpp"
#include "common/error.hpp"

using namespace drover;
using namespace drover::cli;

namespace {

SbatchContext ctx() {
    SbatchContext c;
    c.env = {{"HOME", "/home/alice"}, {"PATH", "/usr/bin"}, {"SLURM_CONF", "/etc/x"}, {"FOO", "1"}};
    c.cwd = "/home/alice/work";
    c.hostname = "login1";
    c.now = 1700000000;
    return c;
}

SbatchRequest parse(std::vector<std::string> args, std::string script) {
    return parse_sbatch(args, std::move(script), ctx());
}

std::string error_of(std::vector<std::string> args, std::string script) {
    try {
        parse(std::move(args), std::move(script));
    } catch (const ParseError &e) {
        return e.what();
    } catch (const UsageError &e) {
        return std::string("usage: ") + e.what();
    }
    return "no error";
}

const char *kScript = "#!/bin/bash\n"
                      "#SBATCH --job-name=ox_process_j-042\n"
                      "#SBATCH --output=/scratch/slurm-%j.out\n"
                      "#SBATCH --error=/scratch/slurm-%j.err\n"
                      "#SBATCH --partition=gpu\n"
                      "#SBATCH --account=my-lab\n"
                      "#SBATCH --cpus-per-task=4\n"
                      "#SBATCH --mem=8G\n"
                      "#SBATCH --time=01:06:00\n"
                      "\n"
                      "# --- Environment setup ---\n"
                      "set -euo pipefail\n"
                      "#SBATCH --partition=ignored-after-first-command\n";

} // namespace

TEST(SbatchDirectives, OxyMakeScript) {
    SbatchRequest r = parse({"job.sh"}, kScript);
    EXPECT_EQ(r.name, "ox_process_j-042");
    EXPECT_EQ(r.std_out, "/scratch/slurm-%j.out");
    EXPECT_EQ(r.std_err, "/scratch/slurm-%j.err");
    EXPECT_EQ(r.partition, "gpu");
    EXPECT_EQ(r.account, "my-lab");
    EXPECT_EQ(r.cpus_per_task, 4u);
    EXPECT_EQ(r.mem_per_node_mb, 8192u);
    EXPECT_EQ(r.time_limit_min, 66u);
    EXPECT_EQ(r.command, "/home/alice/work/job.sh");
    EXPECT_EQ(r.work_dir, "/home/alice/work");
    EXPECT_TRUE(r.warnings.empty());
}

TEST(SbatchDirectives, CommandLineWins) {
    SbatchRequest r =
        parse({"-J", "cli", "--partition", "batch", "-t", "10", "job.sh", "a1", "a2"}, kScript);
    EXPECT_EQ(r.name, "cli");
    EXPECT_EQ(r.partition, "batch");
    EXPECT_EQ(r.time_limit_min, 10u);
    EXPECT_EQ(r.account, "my-lab"); // from the script
    EXPECT_EQ(r.argv, (std::vector<std::string>{"a1", "a2"}));
}

TEST(SbatchDirectives, OptionSpellings) {
    const char *s = "#!/bin/sh\ntrue\n";
    EXPECT_EQ(parse({"-Jx", "job.sh"}, s).name, "x");
    EXPECT_EQ(parse({"--job-name=y", "job.sh"}, s).name, "y");
    EXPECT_EQ(parse({"--job-name", "z", "job.sh"}, s).name, "z");
    EXPECT_EQ(parse({"--job=w", "job.sh"}, s).name, "w"); // unique prefix
    EXPECT_EQ(parse({"-N", "2-4", "job.sh"}, s).max_nodes, 4u);
    EXPECT_EQ(parse({"-N", "3", "job.sh"}, s).min_nodes, 3u);
    EXPECT_TRUE(parse({"-HW", "job.sh"}, s).hold);
    EXPECT_TRUE(parse({"--parsable", "job.sh"}, s).parsable);
    EXPECT_TRUE(parse({"--open-mode=append", "job.sh"}, s).open_mode_append);
    EXPECT_TRUE(parse({"--exclusive", "job.sh"}, s).exclusive);
    EXPECT_EQ(parse({"-D", "sub", "job.sh"}, s).work_dir, "/home/alice/work/sub");
    EXPECT_EQ(parse({"-D", "/abs", "job.sh"}, s).work_dir, "/abs");
    // "none" is no file, as in Slurm; a name that only contains it is a file.
    EXPECT_EQ(parse({"-o", "none", "job.sh"}, s).std_out, "/dev/null");
    EXPECT_EQ(parse({"--error=NONE", "job.sh"}, s).std_err, "/dev/null");
    EXPECT_EQ(parse({"-i", "none", "job.sh"}, s).std_in, "/dev/null");
    EXPECT_EQ(parse({"-o", "none.txt", "job.sh"}, s).std_out, "none.txt");
}

TEST(SbatchDirectives, QuotesAndComments) {
    SbatchRequest r = parse({"job.sh"}, "#!/bin/sh\n"
                                        "# a comment\n"
                                        "#SBATCH -J \"two words\"   # trailing comment\n"
                                        "#SBATCH --comment='it is'\n"
                                        "#SBATCHNOT -p wrong\n"
                                        "   \n"
                                        "#SBATCH -p right\n"
                                        "echo\n");
    EXPECT_EQ(r.name, "two words");
    EXPECT_EQ(r.comment, "it is");
    EXPECT_EQ(r.partition, "right");
}

TEST(SbatchDirectives, BadDirectiveNamesTheLine) {
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n#SBATCH -J ok\n#SBATCH --time=abc\ntrue\n"),
              "script line 3: Invalid --time specification");
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n#SBATCH --mem=lots\n"),
              "script line 2: invalid memory size 'lots'");
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n\n#SBATCH --bogus\n"),
              "script line 3: unrecognized option '--bogus'");
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n#SBATCH -J \"open\n"),
              "script line 2: unterminated quote");
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n#SBATCH -N 4-2\n"),
              "script line 2: invalid node count '4-2'");
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n#SBATCH --open-mode=sideways\n"),
              "script line 2: invalid open mode 'sideways' (expected append or truncate)");
}

TEST(SbatchDirectives, BadCommandLineValues) {
    const char *s = "#!/bin/sh\ntrue\n";
    EXPECT_EQ(error_of({"-t", "soon", "job.sh"}, s), "Invalid --time specification");
    EXPECT_EQ(error_of({"-n", "0", "job.sh"}, s), "invalid number of tasks '0'");
    EXPECT_EQ(error_of({"-c", "x", "job.sh"}, s), "invalid number of cpus per task 'x'");
    EXPECT_EQ(error_of({"--mem=1G", "--mem-per-cpu=1G", "job.sh"}, s),
              "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");
    EXPECT_EQ(error_of({"--foo", "job.sh"}, s), "usage: unrecognized option '--foo'");
    EXPECT_EQ(error_of({"-J"}, s), "usage: option requires an argument -- 'J'");
    EXPECT_EQ(error_of({"--job-name"}, s), "usage: option '--job-name' requires an argument");
    EXPECT_EQ(error_of({"--hold=1", "job.sh"}, s),
              "usage: option '--hold' doesn't allow an argument");
    EXPECT_EQ(error_of({"--array=0-", "job.sh"}, s), "invalid job array specification '0-'");
    EXPECT_EQ(error_of({"--wrap", "true", "job.sh"}, s),
              "Script arguments not permitted with --wrap option");
}

TEST(SbatchDirectives, AmbiguousPrefix) {
    EXPECT_EQ(error_of({"--me=1", "job.sh"}, "#!/bin/sh\n"),
              "usage: option '--me' is ambiguous; possibilities: '--mem' '--mem-per-cpu' "
              "'--mem-per-gpu'");
}

TEST(SbatchScript, Refusals) {
    EXPECT_EQ(error_of({"job.sh"}, ""), "Batch script is empty!");
    EXPECT_EQ(error_of({"job.sh"}, "  \n\t\n"), "Batch script contains only whitespace!");
    EXPECT_EQ(error_of({"job.sh"}, "echo hi\n"),
              "This does not look like a batch script.  The first line must start with #! "
              "followed by the path to an interpreter.\nFor instance: #!/bin/sh");
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\r\necho\r\n"),
              "Batch script contains DOS line breaks (\\r\\n)\ninstead of expected UNIX line "
              "breaks (\\n).");
}

TEST(SbatchScript, WrapAndDefaultNames) {
    SbatchCommandLine cl = parse_sbatch_command_line(std::vector<std::string>{"--wrap", "echo hi"});
    ASSERT_TRUE(cl.wrap);
    SbatchRequest r = build_sbatch_request(cl, wrap_script(*cl.wrap), ctx());
    EXPECT_EQ(r.script, "#!/bin/sh\n# This script was created by sbatch --wrap.\n\necho hi\n");
    EXPECT_EQ(r.name, "wrap");
    EXPECT_EQ(r.command, "");
    SbatchCommandLine stdin_cl = parse_sbatch_command_line(std::vector<std::string>{});
    EXPECT_EQ(build_sbatch_request(stdin_cl, "#!/bin/sh\n", ctx()).name, "sbatch");
    EXPECT_EQ(parse({"dir/run.sh"}, "#!/bin/sh\n").name, "run.sh");
}

TEST(SbatchScript, StopsAtFirstCommand) {
    auto d = scan_directives("#!/bin/sh\n#SBATCH -J a\nhostname\n#SBATCH -J b\n");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].line, 2);
    EXPECT_EQ(d[0].args, (std::vector<std::string>{"-J", "a"}));
}

TEST(SbatchExport, Modes) {
    Env env = {{"A", "1"}, {"B", "2"}, {"SLURM_X", "3"}};
    EXPECT_EQ(export_environment("ALL", env), env);
    EXPECT_EQ(export_environment("NONE", env), (Env{{"SLURM_X", "3"}}));
    EXPECT_EQ(export_environment("ALL,B=9,C=4", env),
              (Env{{"A", "1"}, {"SLURM_X", "3"}, {"B", "9"}, {"C", "4"}}));
    EXPECT_EQ(export_environment("B", env), (Env{{"B", "2"}, {"SLURM_X", "3"}}));
    EXPECT_THROW(export_environment(",", env), ParseError);
    SbatchRequest r = parse({"--export=NONE", "job.sh"}, "#!/bin/sh\n");
    // SLURM_* pass, and the --export value itself travels as SLURM_EXPORT_ENV.
    EXPECT_EQ(r.environment, (Env{{"SLURM_CONF", "/etc/x"}, {"SLURM_EXPORT_ENV", "NONE"}}));
    EXPECT_EQ(parse({"job.sh"}, "#!/bin/sh\n").environment.size(), 4u);
}

TEST(SbatchEnvVars, BetweenDirectivesAndCommandLine) {
    SbatchContext c = ctx();
    c.env.push_back({"SBATCH_PARTITION", "envpart"});
    c.env.push_back({"SBATCH_TIMELIMIT", "7"});
    auto r =
        parse_sbatch(std::vector<std::string>{"job.sh"}, "#!/bin/sh\n#SBATCH -p scriptpart\n", c);
    EXPECT_EQ(r.partition, "envpart");
    EXPECT_EQ(r.time_limit_min, 7u);
    r = parse_sbatch(std::vector<std::string>{"-p", "clipart", "job.sh"}, "#!/bin/sh\n", c);
    EXPECT_EQ(r.partition, "clipart");
}

TEST(SbatchIgnored, WarnOnceAndKeepGoing) {
    auto r = parse({"--gpu-freq=low", "--cpu-freq=high", "--licenses=x", "--qos=high",
                    "--mail-type=FAIL", "job.sh"},
                   "#!/bin/sh\n#SBATCH --gpu-freq=high\n");
    ASSERT_EQ(r.warnings.size(), 2u);
    EXPECT_EQ(r.warnings[0], "--gpu-freq is not supported by Drover yet and was ignored");
    EXPECT_EQ(r.warnings[1], "--cpu-freq is not supported by Drover yet and was ignored");
    EXPECT_EQ(r.qos, "high");   // kept: the job's QOS
    EXPECT_EQ(r.licenses, "x"); // and its licenses
}

TEST(SbatchGpuBind, KeptCheckedAndTheCommandLineWins) {
    auto r = parse({"--gpu-bind=single:1", "job.sh"}, "#!/bin/sh\n#SBATCH --gpu-bind=none\n");
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(r.gpu_bind, "single:1");
    EXPECT_THROW(parse({"--gpu-bind=nearest", "job.sh"}, "#!/bin/sh\n"), drover::ParseError);
}

TEST(SbatchMemPerCpu, SentAsIs) {
    auto r = parse({"--mem-per-cpu=1G", "-c", "2", "-n", "4", "-N", "2", "job.sh"}, "#!/bin/sh\n");
    EXPECT_EQ(r.mem_per_cpu_mb, 1024u);
    EXPECT_EQ(r.mem_per_node_mb, 0u);
    r = parse({"--mem=2G", "job.sh"}, "#!/bin/sh\n");
    EXPECT_EQ(r.mem_per_node_mb, 2048u);
    EXPECT_EQ(r.mem_per_cpu_mb, 0u);
}

TEST(SbatchBegin, FutureOnly) {
    EXPECT_EQ(parse({"--begin=now", "job.sh"}, "#!/bin/sh\n").begin_time, 0);
    EXPECT_EQ(parse({"--begin=now+1hour", "job.sh"}, "#!/bin/sh\n").begin_time, 1700000000 + 3600);
}

TEST(SbatchTasksPerNode, SetsTasksUnlessNtasksGiven) {
    EXPECT_EQ(parse({"--ntasks-per-node=4", "-N", "2", "job.sh"}, "#!/bin/sh\n").num_tasks, 8u);
    EXPECT_EQ(parse({"--ntasks-per-node=4", "-n", "3", "job.sh"}, "#!/bin/sh\n").num_tasks, 3u);
}

namespace {

const char *kArrayScript = "#!/bin/bash\n"
                           "#SBATCH --job-name=ox_array_align\n"
                           "#SBATCH --array=0-4%2\n"
                           "#SBATCH --output=/scratch/staging/slurm-%A_%a.out\n"
                           "#SBATCH --error=/scratch/staging/slurm-%A_%a.err\n"
                           "#SBATCH --partition=gpu\n"
                           "#SBATCH --cpus-per-task=8\n"
                           "#SBATCH --mem=16G\n"
                           "\n"
                           "set -euo pipefail\n";

} // namespace

TEST(SbatchArray, OxyMakeArrayScript) {
    SbatchRequest r = parse({"job.sh"}, kArrayScript);
    EXPECT_EQ(r.array, "0-4%2");
    EXPECT_EQ(r.std_out, "/scratch/staging/slurm-%A_%a.out");
    EXPECT_EQ(r.mem_per_node_mb, 16384u);
    EXPECT_TRUE(r.warnings.empty());
}

TEST(SbatchArray, FormsPassedAsWritten) {
    const char *s = "#!/bin/sh\n";
    EXPECT_EQ(parse({"--array=0-15", "job.sh"}, s).array, "0-15");
    EXPECT_EQ(parse({"-a", "1,3,5", "job.sh"}, s).array, "1,3,5");
    EXPECT_EQ(parse({"--array=0-15:4", "job.sh"}, s).array, "0-15:4");
    EXPECT_EQ(parse({"-a0-15%2", "job.sh"}, s).array, "0-15%2");
    EXPECT_EQ(parse({"--array=1,3,10-14:2", "job.sh"}, s).array, "1,3,10-14:2");
    EXPECT_EQ(error_of({"--array=5-1", "job.sh"}, s), "invalid job array specification '5-1'");
    EXPECT_EQ(error_of({"--array=0-4%x", "job.sh"}, s), "invalid job array specification '0-4%x'");
    EXPECT_EQ(error_of({"--array=0-4:0", "job.sh"}, s), "invalid job array specification '0-4:0'");
    EXPECT_EQ(error_of({"--array=1,,2", "job.sh"}, s), "invalid job array specification '1,,2'");
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n#SBATCH -J a\n#SBATCH --array=a-b\n"),
              "script line 3: invalid job array specification 'a-b'");
    SbatchContext c = ctx();
    c.env.push_back({"SBATCH_ARRAY_INX", "2-3"});
    EXPECT_EQ(parse_sbatch(std::vector<std::string>{"job.sh"}, "#!/bin/sh\n", c).array, "2-3");
}

TEST(SbatchDependency, AsWrittenAndKillOnInvalid) {
    const char *s = "#!/bin/sh\n";
    EXPECT_EQ(parse({"--dependency=afterok:12:13", "job.sh"}, s).dependency, "afterok:12:13");
    EXPECT_EQ(parse({"-d", "afterok:12?afterany:14", "job.sh"}, s).dependency,
              "afterok:12?afterany:14");
    EXPECT_EQ(parse({"job.sh"}, "#!/bin/sh\n#SBATCH --dependency=singleton\n").dependency,
              "singleton");
    EXPECT_EQ(parse({"job.sh"}, s).kill_on_invalid_dep, -1);
    EXPECT_EQ(parse({"--kill-on-invalid-dep=yes", "job.sh"}, s).kill_on_invalid_dep, 1);
    EXPECT_EQ(parse({"--kill-on-invalid-dep=NO", "job.sh"}, s).kill_on_invalid_dep, 0);
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n#SBATCH --kill-on-invalid-dep=maybe\n"),
              "script line 2: invalid --kill-on-invalid-dep value 'maybe' (expected yes or no)");
}

TEST(SbatchScheduling, NiceRequeueSignalDeadline) {
    const char *s = "#!/bin/sh\n";
    EXPECT_EQ(parse({"job.sh"}, s).nice, 0);
    EXPECT_EQ(parse({"--nice", "job.sh"}, s).nice, 100);
    EXPECT_EQ(parse({"--nice=5", "job.sh"}, s).nice, 5);
    EXPECT_EQ(parse({"--nice=-5", "job.sh"}, s).nice, -5);
    EXPECT_EQ(parse({"job.sh"}, "#!/bin/sh\n#SBATCH --nice\n").nice, 100);
    EXPECT_EQ(error_of({"--nice=lots", "job.sh"}, s), "invalid nice value 'lots'");
    EXPECT_EQ(error_of({"--nice=2147483646", "job.sh"}, s), "invalid nice value '2147483646'");
    EXPECT_EQ(parse({"job.sh"}, s).requeue, -1);
    EXPECT_EQ(parse({"--requeue", "job.sh"}, s).requeue, 1);
    EXPECT_EQ(parse({"--requeue", "--no-requeue", "job.sh"}, s).requeue, 0);
    EXPECT_EQ(parse({"job.sh"}, "#!/bin/sh\n#SBATCH --no-requeue\n").requeue, 0);
    EXPECT_EQ(parse({"--signal=B:USR1@300", "job.sh"}, s).signal, "B:USR1@300");
    EXPECT_EQ(parse({"--signal=10", "job.sh"}, s).signal, "10");
    EXPECT_EQ(parse({"--signal=SIGTERM@60", "job.sh"}, s).signal, "SIGTERM@60");
    EXPECT_EQ(parse({"--signal=RB:USR2", "job.sh"}, s).signal, "RB:USR2");
    EXPECT_EQ(error_of({"--signal=FOO", "job.sh"}, s), "invalid --signal specification 'FOO'");
    EXPECT_EQ(error_of({"--signal=USR1@x", "job.sh"}, s),
              "invalid --signal specification 'USR1@x'");
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n#SBATCH --signal=X:USR1\n"),
              "script line 2: invalid --signal specification 'X:USR1'");
    EXPECT_EQ(parse({"--deadline=now+1hour", "job.sh"}, s).deadline, 1700000000 + 3600);
    EXPECT_EQ(error_of({"--deadline=someday", "job.sh"}, s), "invalid deadline 'someday'");
    SbatchContext c = ctx();
    c.env.push_back({"SBATCH_REQUEUE", ""});
    c.env.push_back({"SBATCH_SIGNAL", "USR1@30"});
    auto r =
        parse_sbatch(std::vector<std::string>{"job.sh"}, "#!/bin/sh\n#SBATCH --no-requeue\n", c);
    EXPECT_EQ(r.requeue, 1); // the variable wins over the script
    EXPECT_EQ(r.signal, "USR1@30");
}

TEST(SbatchResources, NodesAndCpus) {
    const char *s = "#!/bin/sh\n";
    auto r = parse({"--ntasks-per-node=4", "-N", "2", "--mincpus=3", "--tmp=10G", "-C", "a100&ib",
                    "-w", "n[1-2]", "-x", "n3", "--contiguous", "job.sh"},
                   s);
    EXPECT_EQ(r.ntasks_per_node, 4u);
    EXPECT_EQ(r.num_tasks, 8u);
    EXPECT_EQ(r.min_cpus_per_node, 3u);
    EXPECT_EQ(r.tmp_disk_mb, 10240u);
    EXPECT_EQ(r.constraint, "a100&ib");
    EXPECT_EQ(r.req_nodes, "n[1-2]");
    EXPECT_EQ(r.exc_nodes, "n3");
    EXPECT_TRUE(r.contiguous);
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(error_of({"--mincpus=0", "job.sh"}, s),
              "invalid minimum number of cpus per node '0'");
    EXPECT_EQ(error_of({"--tmp=big", "job.sh"}, s), "invalid temporary disk size 'big'");
    EXPECT_EQ(error_of({"-w", "n[2-1]", "job.sh"}, s), "invalid node list 'n[2-1]'");
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n#SBATCH --exclude=n[1-\n"),
              "script line 2: invalid excluded node list 'n[1-'");
    // --exclusive and --oversubscribe: the later wins.
    r = parse({"--exclusive", "-s", "job.sh"}, s);
    EXPECT_TRUE(r.oversubscribe);
    EXPECT_FALSE(r.exclusive);
    r = parse({"--oversubscribe", "--exclusive", "job.sh"}, s);
    EXPECT_FALSE(r.oversubscribe);
    EXPECT_TRUE(r.exclusive);
}

TEST(SbatchResources, GresAndGpus) {
    const char *s = "#!/bin/sh\n";
    EXPECT_EQ(parse({"--gres=gpu:2", "job.sh"}, s).gres, "gpu:2");
    EXPECT_EQ(parse({"--gres=gpu:a100:1,nic", "job.sh"}, s).gres, "gpu:a100:1,nic:1");
    EXPECT_EQ(parse({"--gres=none", "job.sh"}, s).gres, "");
    EXPECT_EQ(parse({"--gres=gpu:2", "--gres=none", "job.sh"}, s).gres, "");
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n#SBATCH --gres=gpu:x:y:z\n"),
              "script line 2: Invalid generic resource (gres) specification");
    EXPECT_EQ(error_of({"--gres=gpu:-1", "job.sh"}, s),
              "Invalid generic resource (gres) specification");
    EXPECT_EQ(error_of({"--gres=gpu:99999999999999999999", "job.sh"}, s),
              "Invalid generic resource (gres) specification");
    auto r = parse({"--gpus=1", "job.sh"}, s);
    EXPECT_EQ(r.gpus, 1u);
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(parse({"-G", "2", "job.sh"}, s).gpus, 2u);
    EXPECT_EQ(parse({"--gpus-per-task=1", "job.sh"}, s).gpus_per_task, 1u);
    EXPECT_EQ(parse({"--gpus-per-node=2", "job.sh"}, s).gpus_per_node, 2u);
    r = parse({"--gpus=a100:2", "job.sh"}, s);
    EXPECT_EQ(r.gpus, 2u);
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0],
              "--gpus=a100:2: GPU types are not supported by Drover yet; any GPU may be given");
    // A typed per-node count is exactly a --gres request.
    r = parse({"--gpus-per-node=a100:2", "job.sh"}, s);
    EXPECT_EQ(r.gpus_per_node, 0u);
    EXPECT_EQ(r.gres, "gpu:a100:2");
    EXPECT_EQ(error_of({"--gpus=0", "job.sh"}, s), "invalid number of gpus '0'");
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n#SBATCH --gpus-per-node=two\n"),
              "script line 2: invalid number of gpus per node 'two'");
    SbatchContext c = ctx();
    c.env.push_back({"SBATCH_GRES", "gpu:1"});
    c.env.push_back({"SBATCH_GPUS", "3"});
    r = parse_sbatch(std::vector<std::string>{"job.sh"}, "#!/bin/sh\n", c);
    EXPECT_EQ(r.gres, "gpu:1");
    EXPECT_EQ(r.gpus, 3u);
}

TEST(SbatchMemory, MutuallyExclusiveAsSlurm) {
    const char *fatal = "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.";
    // In the script alone, on the command line alone, or split between them.
    EXPECT_EQ(error_of({"job.sh"}, "#!/bin/sh\n#SBATCH --mem=1G\n#SBATCH --mem-per-cpu=1G\n"),
              fatal);
    EXPECT_EQ(error_of({"--mem-per-cpu=1G", "job.sh"}, "#!/bin/sh\n#SBATCH --mem=1G\n"), fatal);
    EXPECT_EQ(error_of({"--mem=1G", "--mem-per-gpu=1G", "job.sh"}, "#!/bin/sh\n"), fatal);
    try {
        parse({"--mem=1G", "--mem-per-cpu=1G", "job.sh"}, "#!/bin/sh\n");
        ADD_FAILURE();
    } catch (const SbatchFatal &) {}
    // The variables together are refused with Slurm's other message.
    SbatchContext c = ctx();
    c.env.push_back({"SBATCH_MEM_PER_NODE", "1G"});
    c.env.push_back({"SBATCH_MEM_PER_CPU", "2G"});
    try {
        parse_sbatch(std::vector<std::string>{"job.sh"}, "#!/bin/sh\n", c);
        ADD_FAILURE();
    } catch (const SbatchFatal &e) {
        EXPECT_STREQ(
            e.what(),
            "SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are mutually exclusive.");
    }
    // A variable yields to the script or command line.
    c = ctx();
    c.env.push_back({"SBATCH_MEM_PER_NODE", "1G"});
    auto r = parse_sbatch(std::vector<std::string>{"--mem-per-cpu=2G", "job.sh"}, "#!/bin/sh\n", c);
    EXPECT_EQ(r.mem_per_cpu_mb, 2048u);
    EXPECT_EQ(r.mem_per_node_mb, 0u);
    r = parse_sbatch(std::vector<std::string>{"job.sh"}, "#!/bin/sh\n", c);
    EXPECT_EQ(r.mem_per_node_mb, 1024u);
    c = ctx();
    c.env.push_back({"SBATCH_MEM_PER_CPU", "3G"});
    r = parse_sbatch(std::vector<std::string>{"job.sh"}, "#!/bin/sh\n#SBATCH --mem=4G\n", c);
    EXPECT_EQ(r.mem_per_node_mb, 4096u);
    EXPECT_EQ(r.mem_per_cpu_mb, 0u);
    // The same option twice: the later value.
    EXPECT_EQ(parse({"--mem=2G", "job.sh"}, "#!/bin/sh\n#SBATCH --mem=1G\n").mem_per_node_mb,
              2048u);
}

namespace {
const std::string *env_value(const SbatchRequest &r, const std::string &key) {
    for (const auto &[k, v] : r.environment)
        if (k == key) return &v;
    return nullptr;
}
} // namespace

TEST(SbatchEnvironment, VariablesSetOnlyWhenTheirOptionWasGiven) {
    const char *s = "#!/bin/sh\ntrue\n";
    auto r = parse({"-c", "1", "--export=NONE", "job.sh"}, s);
    ASSERT_NE(env_value(r, "SLURM_CPUS_PER_TASK"), nullptr);
    EXPECT_EQ(*env_value(r, "SLURM_CPUS_PER_TASK"), "1"); // -c 1 too
    ASSERT_NE(env_value(r, "SLURM_EXPORT_ENV"), nullptr);
    EXPECT_EQ(*env_value(r, "SLURM_EXPORT_ENV"), "NONE");
    r = parse({"job.sh"}, s);
    EXPECT_EQ(env_value(r, "SLURM_CPUS_PER_TASK"), nullptr);
    EXPECT_EQ(env_value(r, "SLURM_EXPORT_ENV"), nullptr);
    EXPECT_EQ(env_value(parse({"--export=ALL", "job.sh"}, s), "SLURM_EXPORT_ENV"), nullptr);
}

TEST(SbatchEnvironment, OutputErrorInputAndOvercommitVariables) {
    SbatchContext c = ctx();
    c.env.push_back({"SBATCH_OUTPUT", "o-%j.txt"});
    c.env.push_back({"SBATCH_ERROR", "e-%j.txt"});
    c.env.push_back({"SBATCH_INPUT", "in.txt"});
    c.env.push_back({"SBATCH_OVERCOMMIT", ""});
    auto r = parse_sbatch(std::vector<std::string>{"job.sh"}, "#!/bin/sh\ntrue\n", c);
    EXPECT_EQ(r.std_out, "o-%j.txt");
    EXPECT_EQ(r.std_err, "e-%j.txt");
    EXPECT_EQ(r.std_in, "in.txt");
    EXPECT_TRUE(r.overcommit);
    r = parse_sbatch(std::vector<std::string>{"-o", "cli.txt", "job.sh"}, "#!/bin/sh\ntrue\n", c);
    EXPECT_EQ(r.std_out, "cli.txt"); // the command line wins
    EXPECT_TRUE(parse({"-O", "job.sh"}, "#!/bin/sh\ntrue\n").overcommit);
}

// Heterogeneous jobs: "A : B script" and "#SBATCH hetjob" make components; a later component
// takes the first's carried-over options (name, account, time, output) but not its resources or
// partition, and has no script of its own.
TEST(SbatchHetJob, ColonSeparatesComponentsBeforeTheScript) {
    SbatchRequest r = parse({"-N1", "-n1", "-J", "het", "-A", "lab", "-t", "10", "-p", "gpu", ":",
                             "-N2", "-n4", "job.sh", "a", ":", "b"},
                            "#!/bin/bash\ntrue\n");
    ASSERT_EQ(r.het.size(), 1u);
    EXPECT_EQ(r.min_nodes, 1u);
    EXPECT_EQ(r.num_tasks, 1u);
    EXPECT_EQ(r.argv, (std::vector<std::string>{"a", ":", "b"})) << "':' after the script is its";
    const SbatchRequest &c = r.het[0];
    EXPECT_EQ(c.min_nodes, 2u);
    EXPECT_EQ(c.num_tasks, 4u);
    EXPECT_EQ(c.name, "het");
    EXPECT_EQ(c.account, "lab");
    EXPECT_EQ(c.time_limit_min, 10u);
    EXPECT_EQ(c.partition, "") << "the partition is not carried over";
    EXPECT_TRUE(c.script.empty());
    EXPECT_TRUE(c.environment.empty());
}

TEST(SbatchHetJob, HetjobDirectiveSeparatesComponents) {
    SbatchRequest r = parse({"job.sh"}, "#!/bin/bash\n"
                                        "#SBATCH -N1 -J dirs --mem=100\n"
                                        "#SBATCH hetjob\n"
                                        "#SBATCH -N3 -J mine\n"
                                        "#SBATCH packjob\n"
                                        "#SBATCH -n2\n"
                                        "true\n");
    ASSERT_EQ(r.het.size(), 2u);
    EXPECT_EQ(r.min_nodes, 1u);
    EXPECT_EQ(r.mem_per_node_mb, 100u);
    EXPECT_EQ(r.het[0].min_nodes, 3u);
    EXPECT_EQ(r.het[0].name, "mine") << "a component's own option wins over the carried one";
    EXPECT_EQ(r.het[0].mem_per_node_mb, 0u) << "memory is not carried over";
    EXPECT_EQ(r.het[1].num_tasks, 2u);
    EXPECT_EQ(r.het[1].name, "dirs");
}

TEST(SbatchHetJob, CommandLineComponentsAddToTheScripts) {
    // The command line's second component applies to the script's second one.
    SbatchRequest r = parse({"-n1", ":", "-n3", "job.sh"},
                            "#!/bin/bash\n#SBATCH -N1\n#SBATCH hetjob\n#SBATCH -N2\ntrue\n");
    ASSERT_EQ(r.het.size(), 1u);
    EXPECT_EQ(r.het[0].min_nodes, 2u);
    EXPECT_EQ(r.het[0].num_tasks, 3u);
    SbatchRequest one = parse({"job.sh"}, "#!/bin/bash\n#SBATCH -N1\ntrue\n");
    EXPECT_TRUE(one.het.empty());
}
