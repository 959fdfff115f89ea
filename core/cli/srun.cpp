// srun.cpp - srun: run a step inside an allocation (SLURM_JOB_ID or --jobid), or make an
// allocation for one step and give it back afterwards.
#include <unistd.h>

#include <cstdlib>

#include <algorithm>

#include "cli/command_docs.hpp"
#include "cli/alloc.hpp"
#include "cli/commands.hpp"
#include "cli/mpmd.hpp"
#include "cli/options.hpp"
#include "cli/rpc.hpp"
#include "cli/srun_opts.hpp"
#include "cli/step_launch.hpp"
#include "cli/srun_help.hpp"
#include "cli/text.hpp"

namespace drover::cli {

namespace {

constexpr const char *kProg = "srun";

const char *kUsage =
    "Usage: srun [-N nnodes] [-n ntasks] [-c ncpus] [--mem=MB] [--exact] [--overlap]\n"
    "            [-J jobname] [-t time] [-p partition] [-w hosts] [-x hosts] [-l] [-K]\n"
    "            [-o out] [-e err] [-i in] [--jobid=id] [--multi-prog] executable [args...]\n";

// srun -v: the options given, in Slurm's table (the lines scripts match, e.g. "ntasks : 4").
void print_defined_options(const SrunRequest &r) {
    auto row = [](const std::string &name, const std::string &value) {
        std::string padded = name;
        padded.resize(std::max<std::size_t>(padded.size(), 20), ' ');
        write_err(std::string(kProg) + ": " + padded + ": " + value + "\n");
    };
    const std::string rule = std::string(kProg) + ": -------------------- --------------------\n";
    write_err(std::string(kProg) + ": defined options\n" + rule);
    for (const auto &[name, value] : r.given) row(name, value);
    row("verbose", std::to_string(r.verbose));
    write_err(rule + kProg + ": end of defined options\n");
}

} // namespace

int srun_main(std::span<const std::string> args) {
    SrunRequest r;
    auto components = mpmd_components(args);
    // In a heterogeneous job's allocation each ':' component is one of its components, and one
    // step across them is not there yet: refused rather than run where the user did not ask.
    if (components.size() > 1 && ::getenv("SLURM_HET_SIZE")) {
        print_error(kProg, "a step across the components of a heterogeneous job ('A : B') is not "
                           "supported yet; run one srun --het-group=K per component");
        return 1;
    }
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
    if (r.verbose) print_defined_options(r);
    if (r.test_only) return guarded(kProg, [&] { return test_allocation(r, kProg); });
    return guarded(kProg, [&] {
        if (r.job_id) return run_step(r, r.job_id, kProg);
        Allocation a;
        if (!allocate(r, kProg, &a)) return 1;
        int rc = run_step(r, a.job_id, kProg);
        release(a.job_id, rc << 8);
        return rc;
    });
}

std::string_view srun_help() {
    return kUsage;
}

} // namespace drover::cli
