// events.hpp - what happens in one part of the controller that parts built above it act on. The
// part it happens in publishes; the parts above subscribe when they are built. So no part calls
// one that depends on it: the node manager does not know the job manager, the job manager knows
// neither the step manager nor the scheduler nor the launcher.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace drover::ctld {

struct Job;

// One kind of event: subscribers run in the order they subscribed, on the loop, at once.
template <class... Args>
class Topic {
  public:
    using Handler = std::function<void(Args...)>;
    void subscribe(Handler h) { handlers_.push_back(std::move(h)); }
    void publish(Args... args) const {
        for (const Handler &h : handlers_) h(args...);
    }

  private:
    std::vector<Handler> handlers_;
};

struct Events {
    // Published by the node manager.
    Topic<uint32_t> node_failed; // a node with jobs on it went down
    // A node registered with the batch jobs it has and the jobs with steps there.
    Topic<uint32_t, const std::vector<uint32_t> &, const std::vector<uint32_t> &> node_registered;
    // A node is to be powered up or down now (power saving: the PowerSaver runs its programs).
    Topic<> power_wanted;

    // Published by the job manager.
    // A job started and its start is durable: the launcher sends a batch script, the step
    // manager answers salloc/srun waiting for the allocation.
    Topic<const Job &> job_started;
    // A running job ended or was requeued: its resources are released. The step manager ends
    // its steps (published before the job's nodes are told).
    Topic<const Job &> job_ended;
    // An interactive job (no script to signal) was signalled: every step of it gets the signal.
    Topic<Job &, int> steps_signalled;
    // A running batch job's launch is to be sent again once the current batch is durable
    // (after a restart, or when its node registers without it).
    Topic<uint32_t> relaunch;

    // Published by the node and job managers: jobs or nodes changed so that a job may now start.
    Topic<> queue_changed;

    // Published by the association admin (AcctAdmin): the associations or QOS were loaded or
    // changed. The job manager counts its jobs' usage again (limits may differ, or the tree).
    Topic<> assocs_changed;
};

} // namespace drover::ctld
