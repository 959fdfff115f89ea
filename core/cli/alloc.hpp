// alloc.hpp - interactive allocations for srun and salloc: ask for one (a job with no batch
// script), wait until it runs, and give it back.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/srun_opts.hpp"

namespace drover::cli {

struct Allocation {
    uint32_t job_id = 0;
    std::string node_list, partition, name;
    std::vector<std::string> nodes;
    std::vector<uint32_t> node_cpus;
    uint32_t num_tasks = 0, cpus_per_task = 1, time_limit_min = 0;
    uint64_t mem_per_node_mb = 0, mem_per_cpu_mb = 0;
};

// srun's and salloc's command line: parses it into *out, printing the warnings. Returns the exit
// status to leave with when there is nothing more to do (a bad option, --help, --version).
std::optional<int> parse_srun_command(std::span<const std::string> args, const std::string &prog,
                                      const char *usage, SrunRequest *out);

// The process environment as pairs, and this host's short name.
std::vector<std::pair<std::string, std::string>> process_env();
std::string short_host();

// Submits the allocation request and waits for it to start, printing Slurm's progress lines as
// "<prog>: ..." (unless quiet). Returns false (after printing why) when it is refused, or ends
// or is cancelled before it starts; SIGINT while waiting cancels it.
// het: a heterogeneous job's further components (salloc A : B), asked for with r in one
// request; het_out gets each one's allocation once the job is granted.
bool allocate(const SrunRequest &r, const std::string &prog, Allocation *out,
              std::span<const SrunRequest> het = {}, std::vector<Allocation> *het_out = nullptr);
// --test-only: asks when the allocation r describes would start, prints the controller's answer
// ("<prog>: Job N to start at T using C processors on nodes L in partition P") and makes none.
// Returns the command's exit status.
int test_allocation(const SrunRequest &r, const std::string &prog);

// scancel of one job or step ("12", "12.3") without telling the user how it went.
void cancel_quietly(const std::string &spec);

// Gives the allocation back; exit_status is the raw wait status of what ran in it.
void release(uint32_t job_id, int exit_status);

// The current state of a job (a drover_job_state), or -1 when the controller does not know it.
int job_state(uint32_t job_id);

} // namespace drover::cli
