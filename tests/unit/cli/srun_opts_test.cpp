// srun_opts_test.cpp - srun's and salloc's options, the variables srun reads inside an
// allocation, and --multi-prog files.
#include <gtest/gtest.h>

#include "cli/mpmd.hpp"
#include "cli/options.hpp"
#include "cli/srun_opts.hpp"
#include "common/error.hpp"
#include "common/multi_prog.hpp"

using drover::ParseError;
using drover::cli::parse_srun;
using Env = std::vector<std::pair<std::string, std::string>>;

namespace {
drover::cli::SrunRequest srun(std::vector<std::string> args, const Env &env = {}) {
    return parse_srun(args, env, "srun");
}
} // namespace

TEST(SrunOpts, StepOptions) {
    auto r = srun({"-n4", "-N",     "2-3", "-c",     "2",        "--mem=1G", "--exact",
                   "-l",  "-K",     "-J",  "wf1",    "-t",       "10",       "--signal=TERM@120",
                   "-m",  "cyclic", "-o",  "out-%t", "hostname", "-f"});
    EXPECT_EQ(r.num_tasks, 4u);
    EXPECT_EQ(r.min_nodes, 2u);
    EXPECT_EQ(r.max_nodes, 3u);
    EXPECT_EQ(r.cpus_per_task, 2u);
    EXPECT_EQ(r.mem_per_node_mb, 1024u);
    EXPECT_TRUE(r.exact && r.label && r.kill_on_bad_exit);
    EXPECT_EQ(r.job_name, "wf1");
    EXPECT_EQ(r.time_limit_min, 10u);
    EXPECT_EQ(r.signal, "TERM@120");
    EXPECT_EQ(r.distribution, "cyclic");
    EXPECT_EQ(r.std_out, "out-%t");
    // Options stop at the program: its own options are its arguments.
    EXPECT_EQ(r.argv, (std::vector<std::string>{"hostname", "-f"}));
}

TEST(SrunOpts, InsideAnAllocationTheJobAndTaskCountComeFromTheEnvironment) {
    Env env{{"SLURM_JOB_ID", "42"}, {"SLURM_NTASKS", "8"}};
    auto r = srun({"true"}, env);
    EXPECT_EQ(r.job_id, 42u);
    EXPECT_EQ(r.num_tasks, 8u);
    EXPECT_EQ(srun({"-n1", "true"}, env).num_tasks, 1u); // -n wins
    EXPECT_EQ(srun({"-N1", "true"}, env).num_tasks, 0u); // -N alone: one task per node
    EXPECT_EQ(srun({"--jobid=7", "true"}, env).job_id, 7u);
    EXPECT_EQ(srun({"true"}).job_id, 0u); // outside: srun allocates
    // salloc never takes SLURM_JOB_ID (it makes a new allocation).
    EXPECT_EQ(parse_srun(std::vector<std::string>{"-N2"}, env, "salloc").job_id, 0u);
}

// --het-group=K in a heterogeneous job's allocation: component K's job id and task count.
TEST(SrunOpts, HetGroupTakesTheComponentsJobAndTasks) {
    Env env{{"SLURM_JOB_ID", "42"},
            {"SLURM_NTASKS", "1"},
            {"SLURM_HET_SIZE", "2"},
            {"SLURM_JOB_ID_HET_GROUP_0", "42"},
            {"SLURM_JOB_ID_HET_GROUP_1", "43"},
            {"SLURM_NTASKS_HET_GROUP_1", "4"}};
    auto r = srun({"--het-group=1", "true"}, env);
    EXPECT_EQ(r.job_id, 43u);
    EXPECT_EQ(r.num_tasks, 4u);
    EXPECT_EQ(srun({"--het-group=0", "true"}, env).job_id, 42u);
    EXPECT_EQ(srun({"--pack-group=1", "true"}, env).job_id, 43u) << "its name before 20.02";
    try {
        srun({"--het-group=2", "true"}, env);
        ADD_FAILURE() << "no error";
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "Attempt to run a job step with het group value of 2, but the job "
                               "allocation has maximum value of 1");
    }
    EXPECT_THROW(srun({"--het-group=x", "true"}, env), ParseError);
}

TEST(SrunOpts, AllocationOptionsSbatchAlsoTakes) {
    auto r = srun({"-O", "--test-only", "-d", "afterok:12", "--mincpus=4", "--tmp=2G", "true"});
    EXPECT_TRUE(r.overcommit);
    EXPECT_TRUE(r.test_only);
    EXPECT_EQ(r.dependency, "afterok:12");
    EXPECT_EQ(r.min_cpus_per_node, 4u);
    EXPECT_EQ(r.tmp_disk_mb, 2048u);
    EXPECT_THROW(srun({"--mincpus=0", "true"}), ParseError);
    EXPECT_EQ(srun({"-I", "true"}).immediate, 1u); // no value: one second
    EXPECT_EQ(srun({"--immediate=5", "true"}).immediate, 5u);
    EXPECT_FALSE(srun({"true"}).immediate);
}

TEST(SrunOpts, InputVariablesGiveWhatTheCommandLineDidNot) {
    Env env{
        {"SLURM_EXPORT_ENV", "NONE"}, {"SLURM_OVERCOMMIT", "1"}, {"SLURM_DEPENDENCY", "after:3"}};
    auto r = srun({"true"}, env);
    EXPECT_EQ(r.export_spec, "NONE");
    EXPECT_TRUE(r.overcommit);
    EXPECT_EQ(r.dependency, "after:3");
    r = srun({"--export=ALL,X=1", "-d", "afterany:4", "true"}, env);
    EXPECT_EQ(r.export_spec, "ALL,X=1");
    EXPECT_EQ(r.dependency, "afterany:4");
    EXPECT_FALSE(srun({"true"}).overcommit);
    r = srun({"true"}, {{"SLURM_LABELIO", "1"},
                        {"SLURM_STDOUTMODE", "o-%t"},
                        {"SLURM_JOB_NAME", "nm"},
                        {"SLURM_UNBUFFEREDIO", "0"}});
    EXPECT_TRUE(r.label);
    EXPECT_FALSE(r.unbuffered); // "0" leaves a flag off
    EXPECT_EQ(r.std_out, "o-%t");
    EXPECT_EQ(r.job_name, "nm");
    // Inside an allocation the job's name is not each step's.
    EXPECT_EQ(srun({"true"}, {{"SLURM_JOB_ID", "5"}, {"SLURM_JOB_NAME", "nm"}}).job_name, "");
    EXPECT_EQ(srun({"true"}, {{"SLURM_JOB_ID", "5"}, {"SLURM_NPROCS", "3"}}).num_tasks, 3u);
    EXPECT_THROW(srun({"true"}, {{"SLURM_TIMELIMIT", "bogus"}}), ParseError);
}

TEST(SrunOpts, FewerTasksThanNodesShrinksTheNodes) {
    auto r = srun({"-n1", "-N2", "true"});
    EXPECT_EQ(r.min_nodes, 1u);
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0], "can't run 1 processes on 2 nodes, setting nnodes to 1");
}

TEST(SrunOpts, BadValuesAreRefusedWithTheirOption) {
    EXPECT_THROW(srun({"-n0", "true"}), ParseError);
    EXPECT_THROW(srun({"-N", "3-2", "true"}), ParseError);
    EXPECT_THROW(srun({"--mem=lots", "true"}), ParseError);
    EXPECT_THROW(srun({"--mem=1G", "--mem-per-cpu=1G", "true"}), ParseError);
    EXPECT_THROW(srun({"--signal=NOPE@5", "true"}), ParseError);
    EXPECT_THROW(srun({"-m", "spiral", "true"}), ParseError);
    EXPECT_THROW(srun({"--overlap", "--exclusive", "true"}), ParseError);
    EXPECT_THROW(srun({"--no-such-option", "true"}), drover::cli::UsageError);
    try {
        srun({"-t", "soon", "true"});
        FAIL() << "a bad time limit was accepted";
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "Invalid --time specification"); // Slurm's words
    }
    try {
        srun({"--gres=gpu:-1", "true"});
        FAIL() << "a negative gres count was accepted";
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "Invalid generic resource (gres) specification");
    }
    EXPECT_EQ(srun({"--gres=gpu:a100:2", "true"}).gres, "gpu:a100:2");
}

TEST(MultiProg, EachTaskGetsItsLine) {
    auto p = drover::parse_multi_prog("# comment\n0 echo first %t\n1-2 echo rest %t %o\n", 3);
    EXPECT_EQ(p[0], (std::vector<std::string>{"echo", "first", "0"}));
    EXPECT_EQ(p[1], (std::vector<std::string>{"echo", "rest", "1", "0"}));
    EXPECT_EQ(p[2], (std::vector<std::string>{"echo", "rest", "2", "1"}));
    auto star = drover::parse_multi_prog("1 a\n* b %t\n", 3);
    EXPECT_EQ(star[0], (std::vector<std::string>{"b", "0"}));
    EXPECT_EQ(star[1], (std::vector<std::string>{"a"}));
}

TEST(MultiProg, MistakesNameTheirLine) {
    auto error_of = [](const std::string &text, uint32_t n) {
        try {
            drover::parse_multi_prog(text, n);
        } catch (const ParseError &e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_EQ(error_of("0 a\n", 2), "--multi-prog: no program for task 1");
    EXPECT_EQ(error_of("0 a\n0 b\n", 1), "--multi-prog line 2: task 0 is given twice");
    EXPECT_EQ(error_of("0-5 a\n", 2), "--multi-prog line 1: task 5 is beyond the step's 2 task(s)");
    EXPECT_EQ(error_of("x a\n", 1), "--multi-prog line 1: invalid task ids 'x'");
    EXPECT_EQ(error_of("0\n", 1), "--multi-prog line 1: expected task ids and a program");
}

TEST(SrunOpts, GpuOptionsAndTheirVariablesInsideAnAllocation) {
    auto r = srun({"-n2", "--gpus-per-task=a100:1", "--gpus-per-node=2", "-G", "3",
                   "--gpu-bind=verbose,map_gpu:1,0", "true"});
    EXPECT_EQ(r.gpus_per_task, 1u);
    EXPECT_EQ(r.gpus_per_node, 2u);
    EXPECT_EQ(r.gpus, 3u);
    EXPECT_EQ(r.gpu_bind, "verbose,map_gpu:1,0");
    EXPECT_THROW(srun({"--gpu-bind=nearest", "true"}), ParseError);
    EXPECT_THROW(srun({"--gpus-per-task=0", "true"}), ParseError);
    // sbatch --gpus-per-task=1 is in the script's environment: its srun asks for the same.
    Env env{{"SLURM_JOB_ID", "42"}, {"SLURM_GPUS_PER_TASK", "1"}, {"SLURM_GPU_BIND", "single:1"}};
    auto in = srun({"true"}, env);
    EXPECT_EQ(in.gpus_per_task, 1u);
    EXPECT_EQ(in.gpu_bind, "single:1");
    // srun's own options win.
    EXPECT_EQ(srun({"--gpus-per-node=1", "true"}, env).gpus_per_task, 0u);
    EXPECT_EQ(srun({"--gpu-bind=none", "true"}, env).gpu_bind, "none");
}

TEST(SrunOpts, MpiTypeFromTheOptionOrSlurmMpiType) {
    EXPECT_EQ(srun({"--mpi=pmi2", "true"}).mpi, "pmi2");
    EXPECT_EQ(srun({"--mpi=openmpi", "true"}).mpi, "none"); // Slurm's old name for none
    EXPECT_EQ(srun({"--mpi=list"}).mpi, "list");
    EXPECT_EQ(srun({"--mpi=pmix_v4", "true"}).mpi, "pmix");
    EXPECT_EQ(srun({"true"}).mpi, ""); // MpiDefault decides
    Env env{{"SLURM_MPI_TYPE", "pmi2"}};
    EXPECT_EQ(srun({"true"}, env).mpi, "pmi2");
    EXPECT_EQ(srun({"--mpi=none", "true"}, env).mpi, "none");
    try {
        srun({"--mpi=bogus", "true"});
        ADD_FAILURE() << "--mpi=bogus accepted";
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "Invalid MPI type 'bogus', --mpi=list for acceptable types");
    }
}

TEST(SrunMpmd, ComponentsBecomeOneStepWithAProgramPerTask) {
    std::vector<std::string> args{"-n2", "--mpi=pmi2", "a",   "x y", ":",
                                  "-n3", "b",          "50%", ":",   "c"};
    auto parts = drover::cli::mpmd_components(args);
    ASSERT_EQ(parts.size(), 3u);
    Env env{{"SLURM_JOB_ID", "9"}, {"SLURM_NTASKS", "8"}};
    auto r = drover::cli::mpmd_request(parts, env);
    EXPECT_EQ(r.num_tasks, 6u); // 2 + 3 + 1: SLURM_NTASKS is not a component's count
    EXPECT_EQ(r.mpi, "pmi2");
    EXPECT_EQ(r.job_id, 9u);
    auto progs = drover::parse_multi_prog(r.mpmd, r.num_tasks);
    using Argv = std::vector<std::string>;
    EXPECT_EQ(progs[0], (Argv{"a", "x y"}));
    EXPECT_EQ(progs[2], (Argv{"b", "50%"}));
    EXPECT_EQ(progs[5], (Argv{"c"}));
    std::vector<std::string> empty{"a", ":", "-n2"};
    EXPECT_THROW(drover::cli::mpmd_request(drover::cli::mpmd_components(empty), env), ParseError);
    EXPECT_EQ(drover::cli::mpmd_components(std::vector<std::string>{"a", "b"}).size(), 1u);
}

TEST(MultiProg, QuotedWordsAndAnEscapedPercent) {
    auto p = drover::parse_multi_prog("0 echo 'a b' \"c'd\" 100%% %t\n", 1);
    EXPECT_EQ(p[0], (std::vector<std::string>{"echo", "a b", "c'd", "100%", "0"}));
}

TEST(SrunOpts, HintAndItsExclusions) {
    auto r = srun({"--hint=NoMultiThread", "--cpu-bind=verbose", "true"});
    EXPECT_EQ(r.hint, "nomultithread");
    EXPECT_EQ(srun({"--threads-per-core=1", "--ntasks-per-socket=2", "true"}).ntasks_per_socket,
              2u);
    EXPECT_THROW(srun({"--hint=fast", "true"}), ParseError);
    EXPECT_THROW(srun({"--hint=compute_bound", "--cpu-bind=cores", "true"}), ParseError);
    EXPECT_THROW(srun({"--hint=memory_bound", "--threads-per-core=2", "true"}), ParseError);
    EXPECT_THROW(srun({"--threads-per-core=0", "true"}), ParseError);
}

TEST(SrunOpts, PerGpuResourcesBecomeTheStepsSizes) {
    auto r = srun({"--gpus-per-task=2", "--cpus-per-gpu=3", "--mem-per-gpu=1G", "-n2", "x"});
    EXPECT_EQ(r.cpus_per_task, 6u);
    EXPECT_EQ(r.mem_per_cpu_mb, (2u * 1024 + 5) / 6); // each CPU's share of its task's GPUs
    EXPECT_TRUE(r.exact); // only those CPUs, not every CPU the job has on the node
    auto n = srun({"--gpus-per-node=2", "--mem-per-gpu=500", "x"});
    EXPECT_EQ(n.mem_per_node_mb, 1000u);
    EXPECT_EQ(srun({"--gres=gpu:3", "--mem-per-gpu=100", "x"}).mem_per_node_mb, 300u);
    auto w = srun({"--cpus-per-gpu=2", "--gpus-per-socket=1", "x"});
    EXPECT_EQ(w.cpus_per_task, 0u);
    EXPECT_EQ(w.warnings.size(), 2u); // neither applies here
    EXPECT_THROW(srun({"--cpus-per-gpu=2", "-c2", "x"}), ParseError);
    EXPECT_THROW(srun({"--mem-per-gpu=1G", "--mem=2G", "x"}), ParseError);
    EXPECT_THROW(srun({"--gpus-per-task=65536", "--cpus-per-gpu=65536", "x"}), ParseError);
}
