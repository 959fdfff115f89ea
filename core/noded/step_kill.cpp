// step_kill.cpp - a step's signals and termination: SIGCONT+SIGTERM, SIGKILL after KillWait, and
// the node drained when processes outlive that (UnkillableStepTimeout).
#include "noded/step_runner_impl.hpp"

#include <csignal>
#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "common/timefmt.hpp"
#include "noded/supervisor.hpp"

namespace drover::noded {

void StepRunner::Impl::signal(const StepPtr &s, int sig) {
    if (s->contained) containers.signal(s->cont, sig);
}

void StepRunner::Impl::terminate(const StepPtr &s, uint32_t state) {
    if (!s->end_state) s->end_state = state;
    if (s->terminating || !s->contained) return;
    s->terminating = true;
    spdlog::info("step {}: terminating (container {}, shepherd {})", s->label, s->cont,
                 s->shepherd);
    message(s, "slurmstepd: error: *** STEP " + s->label + " ON " + node + " CANCELLED AT " +
                   format_timestamp(int64_t(::time(nullptr))) +
                   (s->end_state == DROVER_JOB_TIMEOUT ? " DUE TO TIME LIMIT ***" : " ***"));
    // Processes that outlive SIGKILL (stuck in the kernel) make the node unfit for work.
    std::weak_ptr<Impl> weak = shared_from_this();
    s->kill_timer = terminate_container(
        io, containers, s->cont, conf.kill_wait, [s] { return s->finished; },
        [weak, s] {
            auto self = weak.lock();
            if (!self) return;
            s->kill_timer->expires_after(std::chrono::seconds(self->conf.unkillable_step_timeout));
            s->kill_timer->async_wait([self, s](boost::system::error_code ec) {
                if (ec || s->finished || self->pids_of(*s).empty()) return;
                spdlog::error("step {}: processes survived SIGKILL for {} s", s->label,
                              self->conf.unkillable_step_timeout);
                if (self->unkillable) self->unkillable("Kill task failed");
            });
        });
}

} // namespace drover::noded
