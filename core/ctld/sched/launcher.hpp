// launcher.hpp - sends running batch jobs' scripts to their batch hosts: once a job's start is
// durable (Events::job_started), and again when asked (Events::relaunch). A launch the node
// refuses ends the job FAILED; one that does not reach the node is tried again until the node
// takes it or is declared down (which ends or requeues the job). A node ignores a run it already
// has, so nothing runs twice.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>

namespace drover::ctld {

struct Ctx;
class JobManager;
class NodeManager;

class Launcher {
  public:
    Launcher(Ctx &ctx, const NodeManager &nodes, JobManager &jobs);

    // Whether a launch of the job is on its way to its node.
    bool launching(uint32_t job_id) const { return launching_.count(job_id) != 0; }

  private:
    // Sends the launch again once the current batch is durable, unless one is on its way.
    void relaunch(uint32_t job_id);
    void launch(uint32_t job_id);
    // The launch's answer: nothing, a retry in 5 s (no answer), or the job FAILED (refused).
    void launched(uint32_t job_id, uint32_t run, const std::string &why, bool answered);

    Ctx &ctx_;
    const NodeManager &nodes_;
    JobManager &jobs_;
    std::unordered_set<uint32_t> launching_;
};

} // namespace drover::ctld
