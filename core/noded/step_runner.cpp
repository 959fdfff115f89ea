// step_runner.cpp - the step runner's face: a step's signals and live usage for its owner, the
// steps taken back after a restart, and the end of a job's steps here. (Its parts: step_launch,
// step_stream, step_end, step_kill.)
#include "noded/step_runner_impl.hpp"

#include <drover/plugin.h>

#include "common/config.hpp"
#include "noded/step_recovery.hpp"

namespace drover::noded {

StepRunner::StepRunner(asio::io_context &io, const Config &conf, std::string node,
                       plugin::PluginSet &plugins, const net::Authenticator &auth, Reaper &reaper,
                       std::function<bool(uint32_t)> is_admin, Report report, Tell tell)
    : impl_(std::make_shared<Impl>(io, conf, std::move(node), plugins, auth, reaper,
                                   std::move(is_admin), std::move(report), std::move(tell))) {}

StepRunner::~StepRunner() = default;

void StepRunner::set_topology(std::vector<CpuPlace> cpus) {
    impl_->topology = std::move(cpus);
}

void StepRunner::set_gpu_files(std::vector<std::string> files) {
    impl_->gpu_files = std::move(files);
}

void StepRunner::set_gpu_cores(std::vector<std::string> cores) {
    impl_->gpu_cores = std::move(cores);
}

std::vector<std::pair<uint32_t, uint32_t>> StepRunner::running() const {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const auto &[k, s] : impl_->steps) out.push_back(k);
    return out;
}

Status StepRunner::signal(uint32_t job_id, uint32_t step_id, int sig, bool terminate,
                          uint32_t end_state, uint32_t requester) {
    auto &I = *impl_;
    Status why;
    auto s = I.owned_step(job_id, step_id, requester, &why);
    if (!s) return why;
    if (terminate) {
        I.terminate(s, end_state ? end_state : uint32_t(DROVER_JOB_CANCELLED));
        return {};
    }
    I.signal(s, sig);
    return {};
}

bool StepRunner::has_ended(uint32_t job_id) const {
    return impl_->ended_jobs.count(job_id) != 0;
}

Status StepRunner::attach(uint32_t job_id, uint32_t step_id, uint32_t requester,
                          const std::string &host, uint16_t port, std::string key, Attached *out) {
    auto &I = *impl_;
    Status why;
    auto s = I.owned_step(job_id, step_id, requester, &why);
    if (!s) return why;
    // Port 0 asks only for the layout (sattach --layout).
    if (port != 0 && !I.attach_link(s, host, port, std::move(key)))
        return {DROVER_EBUSY, "too many sattach connections to step " + s->label};
    out->tasks = s->tasks;
    for (uint32_t t : s->tasks) out->pids.push_back(s->task_pids.count(t) ? s->task_pids.at(t) : 0);
    out->num_tasks = s->num_tasks;
    return {};
}

StepRunner::Impl::StepPtr StepRunner::Impl::owned_step(uint32_t job_id, uint32_t step_id,
                                                       uint32_t requester, Status *why) {
    auto it = steps.find({job_id, step_id});
    if (it == steps.end()) { // (a step leaves steps as it finishes)
        *why = {DROVER_ENOENT,
                "no step " + std::to_string(job_id) + "." + std::to_string(step_id) + " here"};
        return nullptr;
    }
    if (it->second->uid != requester && !is_admin(requester)) {
        *why = {DROVER_EPERM, "Access/permission denied"};
        return nullptr;
    }
    return it->second;
}

Status StepRunner::stat(uint32_t job_id, uint32_t step_id, uint32_t requester,
                        StepUsageSummary *out, std::vector<int32_t> *pids) {
    auto &I = *impl_;
    Status why;
    auto s = I.owned_step(job_id, step_id, requester, &why);
    if (!s) return why;
    I.sample(s);
    if (s->sampler) *out = s->sampler->summary(I.node);
    *pids = I.pids_of(*s);
    return {};
}

void StepRunner::recover() {
    auto &I = *impl_;
    std::weak_ptr<Impl> weak = impl_;
    StepAdoption adoption;
    adoption.found = [&I](uint32_t job_id, uint32_t step_id) {
        I.launched.insert({job_id, step_id});
        I.jobs_here.insert(job_id);
    };
    adoption.adopt = [&I, weak](const SpooledStep &found,
                                const std::string &dir) -> std::function<void()> {
        auto s = std::make_shared<Step>();
        s->job_id = found.job_id;
        s->step_id = found.step_id;
        s->uid = found.uid;
        s->gid = found.gid;
        s->user = found.user;
        s->label = std::to_string(s->job_id) + "." + std::to_string(s->step_id);
        s->spool = dir;
        s->tasks = found.tasks;
        s->cont = found.cont;
        s->contained = true;
        // Its output and srun's connection went with the old droverd; only its end is left.
        s->status_done = true;
        s->shepherd = found.shepherd.pid;
        I.steps[{s->job_id, s->step_id}] = s;
        I.read_spooled_records(s);
        I.arm_sampling(s);
        return [weak, s] {
            auto self = weak.lock();
            if (!self) return;
            self->read_spooled_records(s);
            s->shepherd_done = true;
            self->maybe_finish(s);
        };
    };
    recover_steps(I.io, I.conf, I.node, I.tell, I.reaper, adoption);
}

void StepRunner::on_unkillable(std::function<void(const std::string &)> drain) {
    impl_->unkillable = std::move(drain);
}

void StepRunner::job_started_here(uint32_t job_id) {
    impl_->jobs_here.insert(job_id);
}

bool StepRunner::job_ended(uint32_t job_id) {
    auto &I = *impl_;
    // Credentials live minutes at most: an ended job is remembered a little longer than that.
    int64_t now = int64_t(::time(nullptr));
    for (auto it = I.ended_jobs.begin(); it != I.ended_jobs.end();)
        it = now - it->second > 3600 ? I.ended_jobs.erase(it) : std::next(it);
    I.ended_jobs[job_id] = now;
    for (auto &[k, s] : I.steps)
        if (k.first == job_id) I.terminate(s, DROVER_JOB_CANCELLED);
    for (auto it = I.launched.begin(); it != I.launched.end();)
        it = it->first == job_id ? I.launched.erase(it) : std::next(it);
    return I.jobs_here.erase(job_id) > 0;
}

} // namespace drover::noded
