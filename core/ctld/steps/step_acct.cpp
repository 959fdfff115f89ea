// step_acct.cpp - step records for the accounting store.
#include "ctld/steps/step_acct.hpp"

#include <drover/proctrack.h>

#include "ctld/acct/acct_recorder.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/steps/step_mgr.hpp"

namespace drover::ctld {

namespace {

std::string tres(uint32_t cpus, uint64_t mem_mb, uint32_t nodes) {
    std::string t = "cpu=" + std::to_string(cpus);
    if (mem_mb)
        t += ",mem=" +
             (mem_mb % 1024 ? std::to_string(mem_mb) + "M" : std::to_string(mem_mb / 1024) + "G");
    return t + ",node=" + std::to_string(nodes);
}

void put_usage(AcctStepRecord &r, const StepUsageSummary &u) {
    r.max_rss = u.max_rss;
    r.max_rss_node = u.max_rss_node;
    r.max_rss_task = u.max_rss_task;
    r.ave_rss = u.ave_rss;
    r.max_vsize = u.max_vsize;
    r.max_vsize_node = u.max_vsize_node;
    r.ave_vsize = u.ave_vsize;
    r.ave_cpu_usec = u.ave_cpu_usec;
    r.min_cpu_usec = u.min_cpu_usec;
    r.user_cpu_usec = u.user_cpu_usec;
    r.sys_cpu_usec = u.sys_cpu_usec;
    r.max_disk_read = u.max_disk_read;
    r.max_disk_read_node = u.max_disk_read_node;
    r.ave_disk_read = u.ave_disk_read;
    r.max_disk_write = u.max_disk_write;
    r.max_disk_write_node = u.max_disk_write_node;
    r.ave_disk_write = u.ave_disk_write;
}

} // namespace

void record_step(Ctx &ctx, const Job &job, const Step &s, int event, const std::string &node_list) {
    AcctStepRecord r;
    r.job_id = job.id;
    r.step_id = s.id;
    r.name = s.name;
    r.node_list = node_list;
    r.nodes = uint32_t(s.nodes.size());
    r.tasks = s.num_tasks;
    for (uint32_t c : s.cpus) r.cpus += c;
    r.req_mem_mb = s.mem_per_node_mb;
    r.state = event == DROVER_ACCT_STEP_END ? s.end_state : uint32_t(DROVER_JOB_RUNNING);
    r.exit_status = s.exit_status;
    r.start_time = s.start_time;
    r.end_time = event == DROVER_ACCT_STEP_END ? Ctx::now() : 0;
    r.cancelled_by = s.cancelled_by;
    r.tres_alloc = tres(r.cpus, s.mem_per_node_mb * r.nodes, r.nodes);
    if (event == DROVER_ACCT_STEP_END) put_usage(r, s.usage);
    ctx.recorder->record(event, std::move(r));
}

void record_batch_step(Ctx &ctx, const Job &job, const std::string &batch_host, uint32_t state,
                       const StepUsageSummary &usage) {
    AcctStepRecord r;
    r.job_id = job.id;
    r.step_id = DROVER_STEP_BATCH;
    r.name = "batch";
    r.node_list = batch_host;
    r.nodes = 1;
    r.tasks = 1;
    r.cpus = job.node_cpus.empty() ? 0 : job.node_cpus.front();
    r.state = state;
    r.exit_status = job.exit_status;
    r.start_time = job.start_time;
    r.end_time = job.end_time ? job.end_time : Ctx::now();
    r.cancelled_by = job.cancelled_by;
    r.tres_alloc = tres(
        r.cpus, job.node_alloc.empty() ? job.mem_per_node_mb : job.node_alloc.front().mem_mb, 1);
    put_usage(r, usage);
    ctx.recorder->record(DROVER_ACCT_STEP_END, std::move(r));
}

} // namespace drover::ctld
