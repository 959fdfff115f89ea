// supervisor.hpp - starting a step on the node and ending it, the batch step and every other
// alike: its supervisor (shepherd.hpp) is forked held, put in the step's container with the
// step's limits, kept in the spool, and only then let go to run the tasks; its processes are
// ended as Slurm ends them.
#pragma once

#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "common/status.hpp"
#include "noded/container.hpp"
#include "noded/reaper.hpp"
#include "noded/shepherd.hpp"

namespace drover::noded {

struct Supervised {
    pid_t pid = 0;           // the supervisor, the container's first process
    drover_cont_id cont = 0; // its container
};

// Records a supervisor in the spool before it may run (a droverd killed from then on finds it
// again); success, or why it could not be recorded.
using KeepSupervisor = std::function<Status(const Supervised &)>;

// The program name that lives beside the running daemon (drover-shepherd, drover-pmix): the build
// tree and the installed sbin alike.
std::string program_beside_daemon(const char *name);

// Starts spec's supervisor for the step (spec.job_id, spec.step_id) labelled label ("7.batch",
// "7.0"). Success (and *out; the tasks start after this returns), or why nothing was started
// (DROVER_EIO when it cannot fork; the container's or keep's failure as they give it): the
// supervisor then never runs a task, and reaper reaps it. The descriptors in spec stay the
// caller's to close.
Status start_supervisor(const ShepherdSpec &spec, const Containers &containers,
                        const StepLimits &limits, const std::string &label, Reaper &reaper,
                        const KeepSupervisor &keep, Supervised *out);

// Ends a step's processes as Slurm does: SIGCONT and SIGTERM to its whole container now, SIGKILL
// once KillWait (kill_wait_s) is over, unless over() says the step has ended by then. killed, if
// set, runs right after the SIGKILL. Returns the timer that sends it: destroying or cancelling it
// cancels the SIGKILL. containers must outlive the timer.
std::unique_ptr<boost::asio::steady_timer>
terminate_container(boost::asio::io_context &io, const Containers &containers, drover_cont_id cont,
                    int kill_wait_s, std::function<bool()> over, std::function<void()> killed);

} // namespace drover::noded
