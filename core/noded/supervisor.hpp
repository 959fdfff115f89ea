// supervisor.hpp - starting a step on the node, the batch step and every other alike: its
// supervisor (shepherd.hpp) is forked held, put in the step's container with the step's limits,
// kept in the spool, and only then let go to run the tasks.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>

#include "noded/container.hpp"
#include "noded/reaper.hpp"
#include "noded/shepherd.hpp"

namespace drover::noded {

struct Supervised {
    pid_t pid = 0;           // the supervisor, the container's first process
    drover_cont_id cont = 0; // its container
};

// Records a supervisor in the spool before it may run (a droverd killed from then on finds it
// again); returns an empty string or why not.
using KeepSupervisor = std::function<std::string(const Supervised &)>;

// Starts spec's supervisor for the step (spec.job_id, spec.step_id) labelled label ("7.batch",
// "7.0"). Returns an empty string (and *out; the tasks start after this returns), or why nothing
// was started: the supervisor then never runs a task, and reaper reaps it. The descriptors in
// spec stay the caller's to close.
std::string start_supervisor(const ShepherdSpec &spec, const Containers &containers,
                             const StepLimits &limits, const std::string &label, Reaper &reaper,
                             const KeepSupervisor &keep, Supervised *out);

} // namespace drover::noded
