// step_create.hpp - the parts of a step's creation from srun's StepCreateRequest that need no
// step bookkeeping: its shape (tasks, nodes, -w/-x), its memory on each node, its signed
// credential and the answer that tells srun where to launch.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "ctld/context.hpp"
#include "ctld/jobs/job.hpp"
#include "ctld/steps/step_layout.hpp"
#include "ctld/steps/step_mgr.hpp"
#include "proto/message_generated.h"

namespace drover::ctld {

// A node's name by its index in the cluster.
using NodeNamer = std::function<const std::string &(uint32_t)>;

// The request as a StepShape over the job's nodes (-w/-x as allowed positions). Refuses an
// invalid --gres, a bad host list and a -w node outside the job.
Status step_shape(const Job &job, const proto::StepCreateRequest &r, const NodeNamer &node_name,
                  StepShape *shape);

// Memory per node of the layout: --mem, --mem-per-cpu, else all the job has there. Refuses more
// than the job has on a node.
Status step_memory(const Job &job, const proto::StepCreateRequest &r, const StepLayout &lay,
                   std::vector<uint64_t> *mem);

// A new step of job (numbered id) from the request and its layout. Refuses a bad --signal.
Status new_step(const Job &job, uint32_t id, const proto::StepCreateRequest &r,
                const StepShape &shape, const StepLayout &lay, Step *st);

// Where the step runs, per node of its layout.
struct StepPlacement {
    std::vector<std::string> names;        // node names
    std::vector<std::string> cpu_id_lists; // the CPU ids its tasks may use there ("0-3")
    std::vector<std::string> gres;         // the job's GRES there
    std::string job_node_list;             // the whole job's nodes, as a host list
};

// The step's credential (not yet signed), as the node daemons check it.
std::vector<uint8_t> step_cred_body(const Config &conf, const Job &job, const Step &st,
                                    const StepPlacement &where, const std::vector<uint64_t> &mem,
                                    const std::string &signal);

// The StepCreateResponse message: nodes and their addresses, task ids, the signed credential.
std::vector<uint8_t> step_create_response(const Ctx &ctx, const Job &job, const Step &st,
                                          const StepLayout &lay, const StepPlacement &where,
                                          const std::vector<uint8_t> &cred);

// sbcast's credential (not yet signed): the job's user, the nodes named, bcast set; it lasts as
// long as a long transfer may take (an hour, not a launch's cred_expire), and never past the
// job's time limit (nodes refuse it once the job has ended there).
std::vector<uint8_t> bcast_cred_body(const Job &job, uint32_t step_id,
                                     const std::vector<std::string> &names);

// The BcastCredResponse message: the nodes, their addresses and the signed credential.
std::vector<uint8_t> bcast_cred_response(const Ctx &ctx, const Job &job, uint32_t step_id,
                                         const std::vector<std::string> &names,
                                         const std::vector<uint8_t> &cred);

} // namespace drover::ctld
