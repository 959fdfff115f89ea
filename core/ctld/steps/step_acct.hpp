// step_acct.hpp - accounting records for steps: numbered srun steps and a job's .batch step.
#pragma once

#include <string>

#include "common/usage.hpp"
#include "ctld/context.hpp"

namespace drover::ctld {

struct Job;
struct Step;

// Spools the step's start or end record (usage and state as the step holds them).
void record_step(Ctx &ctx, const Job &job, const Step &step, int event,
                 const std::string &node_list);

// Spools the end of a batch job's .batch step: the script's usage on batch_host, the first of
// the nodes it ran on.
void record_batch_step(Ctx &ctx, const Job &job, const std::string &batch_host, uint32_t state,
                       const StepUsageSummary &usage);

} // namespace drover::ctld
