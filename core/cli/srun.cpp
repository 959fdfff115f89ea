// srun.cpp - srun: run a step inside an allocation (SLURM_JOB_ID or --jobid), or make an
// allocation for one step and give it back afterwards.
#include <unistd.h>

#include "cli/alloc.hpp"
#include "cli/commands.hpp"
#include "cli/mpmd.hpp"
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

} // namespace

int srun_main(std::span<const std::string> args) {
    SrunRequest r;
    auto components = mpmd_components(args);
    if (components.size() > 1) {
        try {
            r = mpmd_request(components, process_env());
        } catch (const std::exception &e) {
            print_error(kProg, e.what());
            return 1;
        }
    } else if (auto done = parse_srun_command(args, kProg, kUsage, &r)) {
        return *done;
    }
    if (r.mpi == "list") {
        std::string list = "MPI plugin types are...\n";
        for (const auto &t : mpi_types()) list += "\t" + t + "\n";
        list += std::string("specific pmix plugin versions available: ") + kPmixVersioned + "\n";
        write_out(list);
        return 0;
    }
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

} // namespace drover::cli
