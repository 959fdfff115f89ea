// scheduler.hpp - runs scheduling passes through the sched plugin, starts the jobs it picks
// (node choice through the select plugin) and launches their batch scripts.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include <drover/views.h>

#include "common/bitmap.hpp"
#include "ctld/context.hpp"

namespace drover::ctld {

struct Job;
struct Partition;

class Scheduler {
  public:
    explicit Scheduler(Ctx &ctx);
    ~Scheduler();

    // Tells the select plugin the node table and replays running jobs (start and reconfigure).
    void init_select();

    // Asks for a pass soon; requests made while one is queued share it.
    void request();
    // Runs a pass now.
    void pass();

    // Could job ever run on part's nodes? DROVER_OK or DROVER_ENOSPC.
    int test_job(const Job &job, const Partition &part);
    // sbatch --test-only's answer.
    std::string estimate(const Job &job, const Partition &part, uint32_t would_be_id);

    // Eligibility, then node selection (within allowed, when given), then start. DROVER_OK,
    // EBUSY, EPERM or ENOSPC.
    int try_start(Job &job, const drover_bitmap_view *allowed = nullptr);

    // What the sched host table (ABI 1.1) reads.
    const std::vector<drover_node_view> &node_views() const;
    std::vector<Job *> running_jobs() const;
    const std::string &parameters() const;
    int job_nodes(uint32_t job_id, drover_bitmap *nodes, uint32_t *cpus);
    int usable_nodes(const Job &job, drover_bitmap *out);

    // A view of job for plugins; strings borrow from job.
    static drover_job_view view(const Job &job);

    // Sends a running batch job's launch again once the current batch is durable: after a
    // restart (the first launch may never have left), when its node registers without it, or
    // after a launch that did not reach the node. A node ignores a run it already has, so
    // nothing runs twice.
    void relaunch(uint32_t job_id);
    // Whether a launch of the job is on its way to its node.
    bool launching(uint32_t job_id) const { return launching_.count(job_id) != 0; }

  private:
    // Runs the plugin over the pending jobs; how many it had and how many it tried.
    struct PassFigures {
        uint32_t queue = 0, tried = 0;
    };
    PassFigures run_pass();
    // Takes out of nodes those the job excludes (-x) or whose features fail its constraint.
    void narrow_for(const Job &job, Bitmap &nodes) const;
    int start_array_tasks(Job &rec, const Partition &part, const drover_bitmap_view *allowed);
    // The nodes the select plugin would give job now (within allowed, when given): DROVER_OK
    // with nodes set, or DROVER_EBUSY with the job's reason set.
    int choose(Job &job, const Partition &part, const drover_bitmap_view *allowed,
               std::vector<uint32_t> *nodes);
    // Starts job on picked; false (the job stays pending, reason set) when the select plugin
    // refuses to record it.
    bool start(Job &job, const std::vector<uint32_t> &picked);
    void launch(uint32_t job_id);

    struct Timer; // the loop's timer for spaced passes (Asio stays in the .cpp)
    Ctx &ctx_;
    std::unique_ptr<Timer> timer_;
    bool queued_ = false;
    std::unordered_set<uint32_t> launching_;
    std::chrono::steady_clock::time_point last_end_{};
    std::chrono::steady_clock::duration last_cost_{};
};

} // namespace drover::ctld
