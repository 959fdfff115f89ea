// allocation.cpp - a job's hold on its nodes, recorded with the select plugin.
#include "ctld/sched/allocation.hpp"

#include <spdlog/spdlog.h>

#include "ctld/jobs/job.hpp"
#include "ctld/jobs/job_codec.hpp"

namespace drover::ctld {

Status allocate(const plugin::SelectCalls &sel, Job &job, const std::vector<uint32_t> &picked,
                std::size_t node_count, const std::function<uint32_t(uint32_t)> &all_cpus) {
    Bitmap held(node_count);
    for (auto i : picked) held.set(i);
    if (Status s = sel.job_begin(codec::job_view(job), held); !s.ok()) return s;
    job.nodes = picked;
    job.node_cpus.clear();
    job.node_alloc.clear();
    job.alloc_cpus = 0;
    for (auto i : picked) {
        uint32_t c = sel.cpus_on_node(job.id, i, all_cpus(i));
        if (auto a = sel.alloc_detail(job.id, i)) {
            c = a->cpus;
            job.node_alloc.push_back({a->mem_mb, a->cpu_ids, a->gres});
        }
        job.node_cpus.push_back(c);
        job.alloc_cpus += c;
    }
    // Detail for some nodes only is no detail: node_alloc is parallel to nodes or empty.
    if (job.node_alloc.size() != job.nodes.size()) job.node_alloc.clear();
    return {};
}

void release(const plugin::SelectCalls &sel, const Job &job, std::string_view when) {
    if (Status s = sel.job_fini(codec::job_view(job)); !s.ok())
        spdlog::error("job {} ({}): {}", job.id, when, s.text());
}

void forget_nodes(Job &job) {
    job.nodes.clear();
    job.node_cpus.clear();
    job.node_alloc.clear();
    job.alloc_cpus = 0;
}

void suspend_hold(const plugin::SelectCalls &sel, const Job &job, bool suspended) {
    const auto view = codec::job_view(job);
    Status s = suspended ? sel.job_suspend(view) : sel.job_resume(view);
    if (!s.ok())
        spdlog::error("job {} ({}): {}", job.id, suspended ? "suspend" : "resume", s.text());
}

} // namespace drover::ctld
