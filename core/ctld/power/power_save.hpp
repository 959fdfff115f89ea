// power_save.hpp - power saving, as Slurm's Power Saving and Cloud Scheduling guides describe it.
// Nodes idle for SuspendTime (the cluster's, or the highest of their partitions') are powered
// down by SuspendProgram: POWERING_DOWN until SuspendTimeout, then POWERED_DOWN. A powered down
// node allocated to a job, or asked to power up, is powered up by ResumeProgram, which reads the
// jobs and nodes from SLURM_RESUME_FILE; the job is CONFIGURING until its nodes register. A node
// that has not registered within ResumeTimeout goes DOWN and powered down, its jobs are requeued,
// and ResumeFailProgram runs for it. At most ResumeRate and SuspendRate nodes a minute;
// SuspendExcNodes, SuspendExcParts and SuspendExcStates keep nodes from being powered down for
// idleness. A pass runs every power_save_interval seconds and, when a node is to be powered up or
// down (Events::power_wanted), at once (power_save_min_interval after the last one).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/bitmap.hpp"
#include "common/config.hpp"
#include "ctld/power/power_exclusions.hpp"
#include "ctld/power/program_runner.hpp"
#include "net/routes.hpp"

namespace drover::ctld {

struct Ctx;
class NodeManager;
class JobManager;

class PowerSaver {
  public:
    PowerSaver(Ctx &ctx, NodeManager &nodes, JobManager &jobs);

    // Once recovered: SuspendExc* as scontrol last set them.
    void start(bool cold_start);
    // scontrol reconfigure read file (power_exclusions.hpp).
    void reconfigured(const PowerSaveConf &file);
    // scontrol update SuspendExcNodes|SuspendExcParts|SuspendExcStates (administrators).
    net::Routes routes();
    // The power settings in force, for scontrol show config.
    const PowerSaveConf &settings() const { return exc_.settings(); }

    // One pass over the nodes: resumes, suspensions, timeouts.
    void pass();
    // A pass soon (coalesced, power_save_min_interval after the last).
    void request();

  private:
    // The nodes' own timings: the highest their partitions set, else the cluster's.
    int64_t node_setting(uint32_t index, int64_t PartitionConf::*key, int64_t global) const;
    bool suspendable(uint32_t index, int64_t now, const Bitmap &avoid) const;
    // How many more nodes a rate (nodes a minute, 0: no limit) allows now; done: those counted.
    static std::size_t allowance(uint32_t rate, std::deque<int64_t> &done, int64_t now);
    void resume(const std::vector<uint32_t> &idx);
    void suspend(const std::vector<uint32_t> &idx);
    void resume_failed(const std::vector<uint32_t> &idx);
    std::string resume_file(const std::vector<uint32_t> &idx, const std::string &all) const;
    // Runs one of the programs with the nodes' hostlist ("" program: nothing to run).
    void run(const char *label, const std::string &program, const std::string &hosts,
             uint32_t timeout_s, std::string file_text = {});

    Ctx &ctx_;
    NodeManager &nodes_;
    JobManager &jobs_;
    ProgramRunner runner_;
    PowerExclusions exc_;
    int64_t started_;       // idle since then, for nodes not busy since the controller started
    int64_t last_pass_ = 0; // seconds since the epoch
    bool requested_ = false;
    bool enabled_ = false;                    // SuspendTime set, and the programs given can be run
    std::deque<int64_t> resumed_, suspended_; // when, for the rates
};

} // namespace drover::ctld
