// acct_calls.hpp - AcctCalls: the controller's calls into the accounting plugin
// (drover/accounting.h), from its accounting thread only.
#pragma once

#include <functional>
#include <span>

#include <drover/accounting.h>

#include "plugin/calls.hpp"

namespace drover::plugin {

// Records are taken by value so that their struct_size is set here. Streams arrive as typed
// callbacks (each row borrowed for the call) instead of C functions with a void* argument. Each
// method's comment ends with what it answers when the op is absent.
class AcctCalls : public Calls<drover_acct_ops> {
  public:
    using Calls::Calls;
    using OnJob = std::function<void(const drover_acct_job &)>;
    using OnStep = std::function<void(const drover_acct_step &)>;
    using OnAssoc = std::function<void(const drover_acct_assoc &)>;
    using OnNodeEvent = std::function<void(const drover_acct_node_event &)>;

    // Records one event (DROVER_ACCT_JOB_*) of a job. Absent: DROVER_OK (no store keeps it).
    Status job_event(int event, drover_acct_job job) const;
    // Records a step's start or end. Absent: DROVER_OK (a store older than steps keeps none).
    Status step_event(int event, drover_acct_step step) const;
    // Records a node event. Absent: DROVER_OK (a store older than node events keeps none).
    Status node_event(drover_acct_node_event ev) const;

    // Whether job_query can answer: with steps through job_step_query or job_query (jobs only),
    // without them (sacct -X) through job_query alone.
    bool answers_job_query(bool with_steps) const;
    // Streams the matching jobs, and when with_steps and the store keeps them each job's steps
    // right after it. Absent (answers_job_query false): ENOENT.
    Status job_query(drover_acct_query q, bool with_steps, const OnJob &on_job,
                     const OnStep &on_step) const;

    // Whether the store keeps sacctmgr's associations (assoc_update and assoc_list).
    bool keeps_assocs() const;
    // Stores puts and removes in one transaction. Absent: ENOENT.
    Status assoc_update(std::span<const drover_acct_assoc> puts,
                        std::span<const drover_acct_assoc> removes) const;
    // Streams every stored association. Absent: ENOENT.
    Status assoc_list(const OnAssoc &on_assoc) const;

    // Whether the store keeps node events it can be asked for (node_event_query).
    bool keeps_node_events() const;
    // Streams the matching node events. Absent: ENOENT.
    Status node_event_query(drover_acct_event_query q, const OnNodeEvent &on_event) const;
};

} // namespace drover::plugin
