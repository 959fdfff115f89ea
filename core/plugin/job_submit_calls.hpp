// job_submit_calls.hpp - JobSubmitCalls: the core's calls into one job_submit plugin
// (drover/job_submit.h).
#pragma once

#include <cstdint>

#include <drover/job_submit.h>

#include "plugin/calls.hpp"

namespace drover::plugin {

// Each method's comment ends with what it answers when the op is absent.
class JobSubmitCalls : public Calls<drover_job_submit_ops> {
  public:
    using Calls::Calls;

    // A new job's description, which the plugin may change. A refusal keeps the plugin's code
    // and its message alone (empty when it wrote none: the caller then shows the user message).
    // Absent: OK.
    Status job_submit(const drover_job_submit_host &host, drover_job_desc *desc,
                      uint32_t submit_uid) const;
    // An update's changes to job_id. Absent: OK.
    Status job_modify(const drover_job_submit_host &host, drover_job_desc *desc, uint32_t job_id,
                      uint32_t submit_uid) const;
};

} // namespace drover::plugin
