// job_array.cpp - job arrays: one record holds the tasks that have not started; a task that starts
// becomes a Job of its own, with its own id (the last one keeps the record's).
#include "ctld/jobs/job_mgr.hpp"

namespace drover::ctld {

Job *JobManager::split_array_task(Job &rec) {
    if (!rec.array || rec.array->pending.empty()) return nullptr;
    ArrayCounts &c = arrays_[rec.array_job_id];
    if (rec.array->max_running && c.running >= rec.array->max_running) return nullptr;
    return split_array_task(rec, rec.array->pending.front());
}

Job *JobManager::split_array_task(Job &rec, uint32_t task) {
    if (!rec.array) return nullptr;
    ArrayInfo &a = *rec.array;
    auto at = std::lower_bound(a.pending.begin(), a.pending.end(), task);
    if (at == a.pending.end() || *at != task) return nullptr;
    ArrayCounts &c = arrays_[rec.array_job_id];
    a.pending.erase(at);
    if (c.pending) c.pending--;
    if (a.pending.empty()) {
        // The last task is the record itself: it keeps the array's id, as Slurm does.
        rec.array.reset();
        rec.array_task_id = task;
        tasks_[{rec.array_job_id, task}] = rec.id;
        persist(rec);
        return &rec;
    }
    auto t = std::make_unique<Job>(rec);
    t->array.reset();
    t->id = take_job_id();
    t->array_task_id = task;
    Job *out = t.get();
    tasks_[{rec.array_job_id, task}] = t->id;
    jobs_[t->id] = std::move(t);
    persist(*out);
    persist(rec);
    return out;
}

} // namespace drover::ctld
