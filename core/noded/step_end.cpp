// step_end.cpp - a step's records from its shepherd, its usage samples, and its end reported.
#include "noded/step_runner_impl.hpp"

#include <csignal>
#include <cstring>
#include <spdlog/spdlog.h>
#include <sys/wait.h>

#include "common/config.hpp"
#include "noded/pmix/pmix_link.hpp"
#include "noded/step_limits.hpp"
#include "noded/step_recovery.hpp"

namespace drover::noded {

namespace {

// JobAcctGatherFrequency: "30" or "task=30[,energy=...]"; Slurm's default is 30 seconds.
int sample_period(const std::string &spec) {
    std::string v = spec;
    if (auto at = v.find("task="); at != std::string::npos)
        v = v.substr(at + 5);
    else if (v.find('=') != std::string::npos)
        return 30;
    try {
        return v.empty() ? 30 : std::stoi(v);
    } catch (const std::exception &) {
        return 30;
    }
}

// The wait status that stands for the step: the highest exit code, a signal counting as 128+sig.
int worse(int a, int b) {
    auto rank = [](int s) { return WIFSIGNALED(s) ? 128 + WTERMSIG(s) : WEXITSTATUS(s); };
    return rank(b) > rank(a) ? b : a;
}

} // namespace

void StepRunner::Impl::read_status(const StepPtr &s) {
    s->status->async_read_some(
        asio::buffer(s->status_buf),
        [self = shared_from_this(), s](boost::system::error_code ec, std::size_t n) {
            s->status_acc.append(s->status_buf.data(), n);
            while (s->status_acc.size() >= sizeof(ShepherdRecord)) {
                ShepherdRecord r;
                std::memcpy(&r, s->status_acc.data(), sizeof r);
                s->status_acc.erase(0, sizeof r);
                self->on_record(s, r);
            }
            if (ec) {
                s->status_done = true;
                return self->maybe_finish(s);
            }
            self->read_status(s);
        });
}

void StepRunner::Impl::on_record(const StepPtr &s, const ShepherdRecord &r) {
    if (r.kind == ShepherdRecord::NoStream) return; // a batch script's only
    if (r.kind == ShepherdRecord::Started) {
        s->task_pids[r.task] = r.value;
        start_sampler(s);
        return;
    }
    s->task_status[r.task] = r.value;
    if (r.kind == ShepherdRecord::Failed) ++s->failed_tasks, start_sampler(s);
    if (s->sampler && r.kind == ShepherdRecord::Exited)
        s->sampler->task_ended(r.task, rusage_of(r));
    std::string f;
    stepio::frame32(f, stepio::TaskExit, r.task, uint32_t(r.value));
    to_all(s, std::move(f));
    if (s->pmix && s->pmix->sock) { // did the rank die inside MPI? drover-pmix knows
        std::string e;
        pmixlink::frame(e, pmixlink::Exited, r.task, {});
        write_pmix(s, std::move(e));
    }
}

// Sampling starts once every task's first process is known.
void StepRunner::Impl::start_sampler(const StepPtr &s) {
    if (s->sampler || s->task_pids.size() + s->failed_tasks < s->tasks.size()) return;
    std::vector<std::pair<uint32_t, int32_t>> tasks(s->task_pids.begin(), s->task_pids.end());
    s->sampler = std::make_unique<StepSampler>(std::move(tasks));
}

std::vector<int32_t> StepRunner::Impl::pids_of(const Step &s) const {
    return s.contained ? containers.pids(s.cont) : std::vector<int32_t>{};
}

void StepRunner::Impl::sample(const StepPtr &s) {
    if (!s->sampler || !s->contained) return;
    s->sampler->sample(pids_of(*s));
    if (auto cu = containers.usage(s->cont)) s->sampler->add_container(*cu);
}

void StepRunner::Impl::arm_sampling(const StepPtr &s) {
    int period = sample_period(conf.jobacct_gather_frequency);
    if (period <= 0) return;
    s->sample_timer = std::make_unique<asio::steady_timer>(io, std::chrono::seconds(period));
    s->sample_timer->async_wait([self = shared_from_this(), s](boost::system::error_code ec) {
        if (ec || s->finished) return;
        self->sample(s);
        self->arm_sampling(s);
    });
}

void StepRunner::Impl::maybe_finish(const StepPtr &s) {
    if (s->finished || !s->shepherd_done || !s->status_done) return;
    if (s->open_outputs > 0) {
        // Processes the tasks left behind may hold the output open: the step is over, so
        // they go (Slurm kills what remains of a step when its tasks have ended).
        if (s->contained) containers.signal(s->cont, SIGKILL);
        return;
    }
    s->finished = true;
    end_mpi(s);
    if (s->kill_timer) s->kill_timer->cancel();
    if (s->sample_timer) s->sample_timer->cancel();
    StepEnd end = end_of(s);
    for (auto &[t, p] : s->stdin_pipes) {
        boost::system::error_code ec;
        p->close(ec);
    }
    steps.erase({s->job_id, s->step_id});
    spdlog::info("step {} ended here, status {}", s->label, end.exit_status);
    send_kept_report(tell, s->spool, report(end), "step " + s->label,
                     [self = shared_from_this(), s, state = end.state, ooms = end.usage.oom_kills] {
                         std::string f;
                         stepio::frame32(f, stepio::NodeDone, 0, state, ooms, true);
                         s->done_queued = true;
                         self->to_all(s, std::move(f));
                         self->maybe_close_io(s);
                     });
}

// How the step ended here: its worst task, what it used, and the state the node decided.
StepEnd StepRunner::Impl::end_of(const StepPtr &s) {
    StepEnd end;
    end.job_id = s->job_id;
    end.step_id = s->step_id;
    // Tasks with no recorded end were killed along with the shepherd.
    for (uint32_t t : s->tasks)
        end.exit_status =
            worse(end.exit_status, s->task_status.count(t) ? s->task_status[t] : SIGKILL);
    if (s->contained) {
        // The tasks are gone, so /proc has nothing more to say; the container's own figures
        // (the memory peak, OOM kills) still count.
        if (s->sampler)
            if (auto cu = containers.usage(s->cont)) s->sampler->add_container(*cu);
        containers.destroy(s->cont);
    }
    if (s->sampler) end.usage = s->sampler->summary(node);
    end.state = s->end_state;
    if (!end.state && end.usage.oom_kills > 0) end.state = DROVER_JOB_OOM;
    if (end.state == DROVER_JOB_OOM) {
        spdlog::info("step {}: {} oom_kill event(s); the step ends OUT_OF_MEMORY", s->label,
                     end.usage.oom_kills);
        message(s, oom_message(end.usage.oom_kills, s->label));
    }
    return end;
}

// A step found again after a restart: the shepherd's records since the last look.
void StepRunner::Impl::read_spooled_records(const StepPtr &s) {
    for (const auto &r : new_records(s->spool, &s->records_seen)) on_record(s, r);
}

} // namespace drover::noded
