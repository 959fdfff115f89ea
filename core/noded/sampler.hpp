// sampler.hpp - a step's resource usage on this node, sampled from /proc per task, as sstat shows
// it while the step runs and sacct keeps once it ends.
//
// Every sample reads /proc/<pid>/stat (RSS, virtual size, user and system CPU) and, when
// readable, /proc/<pid>/io (bytes read from and written to storage) for each process of the
// step's container, and charges each process to the task whose first process it descends from
// (its parent chain reaches that task's pid). A process whose chain reaches no task pid (a
// double-forked daemon re-parented to init) is charged to the lowest task id of this node; once
// charged, a process stays with its task. The figures follow Slurm's jobacct_gather:
//   - a task's RSS (and virtual size) at one sample is the sum over its processes; MaxRSS is the
//     largest such sum over samples, AveRSS the mean over tasks of each task's mean over the
//     samples in which it had processes;
//   - a task's CPU is the user + system time of every process it ever had (the last figure seen
//     for a process that has gone, or the wait4() figure of the task when that is larger);
//     MinCPU is the smallest task's, AveCPU the mean per task;
//   - disk figures are bytes per task, summed over its processes.
// Not thread-safe: one owner calls it (the node daemon's loop).
#pragma once

#include <sys/resource.h>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <drover/proctrack.h>

#include "common/usage.hpp"

namespace drover::noded {

class StepSampler {
  public:
    // tasks: this node's tasks of the step as (task id, pid of the task's first process).
    // proc_dir is where /proc is (tests may point it elsewhere).
    explicit StepSampler(std::vector<std::pair<uint32_t, int32_t>> tasks,
                         std::string proc_dir = "/proc");

    // Reads every pid of the container (cont_pids) once. Pids that vanish while being read are
    // skipped; a process missing from a later sample keeps the CPU and I/O last seen for it.
    void sample(std::span<const int32_t> pids);
    // The task's first process was reaped: ru (from wait4) gives its final CPU, which counts when
    // larger than the sampled figure, and its ru_maxrss (KiB) is a lower bound for MaxRSS.
    // Unknown task ids are ignored.
    void task_ended(uint32_t task_id, const rusage &ru);
    // The container's own figures (cont_usage): oom_kills; the peak memory, which raises MaxRSS
    // to peak / tasks when the samples saw less (a process the kernel killed at its limit may
    // never have been sampled at its largest); and the CPU totals when larger than the tasks'.
    void add_container(const drover_cont_usage &usage);

    // The figures for this node; node_name fills the *_node fields.
    StepUsageSummary summary(const std::string &node_name) const;

  private:
    struct Task {
        int32_t pid = 0;
        uint32_t samples = 0;                // samples in which it had processes
        uint64_t rss_sum = 0, vsize_sum = 0; // over those samples
        uint64_t max_rss = 0, max_vsize = 0;
        // CPU (usec) and I/O (bytes) of processes gone (retired) and of those in the last sample.
        uint64_t gone_user = 0, gone_sys = 0, gone_read = 0, gone_write = 0;
        uint64_t live_user = 0, live_sys = 0, live_read = 0, live_write = 0;
        uint64_t final_user = 0, final_sys = 0; // from wait4
    };
    struct Proc {
        uint64_t start = 0; // start time in ticks: tells a reused pid from the old process
        uint32_t task = 0;
        uint64_t user = 0, sys = 0, read = 0, write = 0;
    };
    struct Reading; // one /proc read of one pid (sampler.cpp)

    uint32_t owner_of(int32_t pid, const std::map<int32_t, Reading> &now) const;
    void retire(const Proc &p);

    std::string proc_dir_;
    std::map<uint32_t, Task> tasks_;          // by task id
    std::map<int32_t, uint32_t> task_by_pid_; // first process -> task id
    std::map<int32_t, Proc> procs_;           // every process of the last sample
    drover_cont_usage container_{};
};

} // namespace drover::noded
