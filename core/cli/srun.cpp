// srun.cpp - srun: run a step inside an allocation (SLURM_JOB_ID or --jobid), or make an
// allocation for one step and give it back afterwards.
#include <unistd.h>

#include "cli/alloc.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/rpc.hpp"
#include "cli/srun_opts.hpp"
#include "cli/step_launch.hpp"
#include "cli/text.hpp"

namespace drover::cli {

namespace {

constexpr const char *kProg = "srun";

const char *kUsage =
    "Usage: srun [-N nnodes] [-n ntasks] [-c ncpus] [--mem=MB] [--exact] [--overlap]\n"
    "            [-J jobname] [-t time] [-p partition] [-w hosts] [-x hosts] [-l] [-K]\n"
    "            [-o out] [-e err] [-i in] [--jobid=id] [--multi-prog] executable [args...]\n";

}  // namespace

int srun_main(std::span<const std::string> args) {
    SrunRequest r;
    try {
        r = parse_srun(args, process_env(), kProg);
    } catch (const UsageError &e) {
        print_usage_error(kProg, e);
        return 1;
    } catch (const std::exception &e) {
        print_error(kProg, e.what());
        return 1;
    }
    if (r.help || r.usage) {
        write_out(kUsage);
        return 0;
    }
    if (r.version) {
        write_out(version_line("slurm-compatible drover "));
        return 0;
    }
    for (const auto &w : r.warnings) print_warning(kProg, w);
    if (r.argv.empty()) {
        print_error(kProg, "No command given to execute.");
        return 1;
    }
    return guarded(kProg, [&] {
        if (r.job_id) return run_step(r, r.job_id, kProg);
        Allocation a;
        if (!allocate(r, kProg, &a)) return 1;
        int rc = run_step(r, a.job_id, kProg);
        release(a.job_id, rc << 8);
        return rc;
    });
}

}  // namespace drover::cli
