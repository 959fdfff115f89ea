// job_deps.cpp - how a pending job's dependencies stand: terms that hold are dropped, a term that
// can never hold makes the job DependencyNeverSatisfied.
#include "ctld/jobs/job_mgr.hpp"

namespace drover::ctld {

namespace {

bool ended_ok(const Job &j) {
    return j.state == DROVER_JOB_COMPLETE;
}

// One job's state against one term (the job is known).
DepState single(const Job &t, const DepTerm &term, int64_t now) {
    int64_t delay = int64_t(term.delay_min) * 60;
    switch (term.type) {
    case DepType::After:
        if (t.pending() && !(t.finished())) return DepState::Waiting;
        return now >= t.start_time + delay ? DepState::Satisfied : DepState::Waiting;
    case DepType::AfterAny:
        if (!t.finished()) return DepState::Waiting;
        return now >= t.end_time + delay ? DepState::Satisfied : DepState::Waiting;
    case DepType::AfterOk:
    case DepType::AfterCorr:
        if (!t.finished()) return DepState::Waiting;
        if (!ended_ok(t)) return DepState::Never;
        return now >= t.end_time + delay ? DepState::Satisfied : DepState::Waiting;
    case DepType::AfterNotOk:
        if (!t.finished()) return DepState::Waiting;
        if (ended_ok(t)) return DepState::Never;
        return now >= t.end_time + delay ? DepState::Satisfied : DepState::Waiting;
    case DepType::Singleton:
        break;
    }
    return DepState::Satisfied;
}

// A whole array against one term, from its counters.
DepState whole_array(const ArrayCounts &c, DepType type) {
    bool done = c.pending == 0 && c.running == 0;
    switch (type) {
    case DepType::After:
        return c.running + c.ok + c.bad > 0 ? DepState::Satisfied : DepState::Waiting;
    case DepType::AfterAny:
        return done ? DepState::Satisfied : DepState::Waiting;
    case DepType::AfterOk:
    case DepType::AfterCorr:
        if (c.bad) return DepState::Never;
        return done ? DepState::Satisfied : DepState::Waiting;
    case DepType::AfterNotOk:
        if (!done) return DepState::Waiting;
        return c.bad ? DepState::Satisfied : DepState::Never;
    case DepType::Singleton:
        break;
    }
    return DepState::Satisfied;
}

} // namespace

const Job *JobManager::find_for_dependency(uint32_t job_id, uint32_t task_id) const {
    if (task_id != DROVER_NO_VAL) {
        if (auto it = tasks_.find({job_id, task_id}); it != tasks_.end()) {
            auto jt = jobs_.find(it->second);
            return jt == jobs_.end() ? nullptr : jt->second.get();
        }
        // Not started yet: still in the array's pending record.
        auto rec = jobs_.find(job_id);
        if (rec == jobs_.end()) return nullptr;
        const Job &r = *rec->second;
        if (r.array &&
            std::binary_search(r.array->pending.begin(), r.array->pending.end(), task_id))
            return &r;
        if (r.array_task_id == task_id) return &r;
        return nullptr;
    }
    auto it = jobs_.find(job_id);
    return it == jobs_.end() ? nullptr : it->second.get();
}

DepState JobManager::check_dependency(Job &job) {
    if (!job.extra || job.ext().dependency.empty()) return DepState::Satisfied;
    const Dependency &dep = job.ext().dependency;
    int64_t now = Ctx::now();
    Dependency left;
    left.any = dep.any;
    bool any_ok = false, any_never = false, all_never = true;
    for (const DepTerm &t : dep.terms) {
        DepState st = DepState::Satisfied;
        if (t.type == DepType::Singleton) {
            for (const auto &[id, other] : jobs_) {
                if (other.get() == &job || other->uid != job.uid || other->name != job.name)
                    continue;
                if (other->running() || (other->pending() && id < job.id)) {
                    st = DepState::Waiting;
                    break;
                }
            }
        } else if (t.task_id == DROVER_NO_VAL && t.type != DepType::AfterCorr &&
                   arrays_.count(t.job_id)) {
            st = whole_array(arrays_.at(t.job_id), t.type);
        } else {
            uint32_t task = t.task_id;
            if (t.type == DepType::AfterCorr) // the task of the other array with our task's id
                task = job.array ? (job.array->pending.empty() ? DROVER_NO_VAL
                                                               : job.array->pending.front())
                                 : job.array_task_id;
            const Job *target = find_for_dependency(t.job_id, task);
            // Another member's job: as that member says it stands (waiting until it has said).
            std::optional<const Job *> remote;
            if (!target && remote_job_) remote = remote_job_(t.job_id);
            if (remote) target = *remote;
            // A job the controller no longer has ended long ago; its record says no more.
            if (remote && !target)
                st = DepState::Waiting;
            else if (target && target->is_array_record() && task != DROVER_NO_VAL)
                st = DepState::Waiting;
            else if (target)
                st = single(*target, t, now);
        }
        if (st == DepState::Satisfied)
            any_ok = true;
        else
            left.terms.push_back(t);
        if (st == DepState::Never)
            any_never = true;
        else
            all_never = false;
    }
    DepState result;
    if (dep.any)
        result = any_ok ? DepState::Satisfied : all_never ? DepState::Never : DepState::Waiting;
    else
        result = any_never            ? DepState::Never
                 : left.terms.empty() ? DepState::Satisfied
                                      : DepState::Waiting;
    if (result == DepState::Satisfied) left.terms.clear();
    if (result != DepState::Never && left.terms.size() != dep.terms.size()) {
        job.mutable_extra().dependency = std::move(left);
        persist(job);
    }
    return result;
}

} // namespace drover::ctld
