// switch_calls.hpp - SwitchCalls: the node daemon's calls into the switch plugin
// (drover/switch.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include <drover/switch.h>

#include "plugin/calls.hpp"

namespace drover::plugin {

// Each method's comment ends with what it answers when the op is absent.
class SwitchCalls : public Calls<drover_switch_ops> {
  public:
    using Calls::Calls;
    // The plugin adds NAME=VALUE to the job's environment through it, during the call.
    using EnvAdd = std::function<void(std::string_view name, std::string_view value)>;

    // Sets the interconnect up for job_id on node_list (a hostlist) before its processes start.
    // Absent: DROVER_OK (no interconnect to set up).
    Status job_init(uint32_t job_id, std::string_view node_list, const EnvAdd &env_add) const;
    // Tears it down once every process has ended. Absent: DROVER_OK.
    Status job_fini(uint32_t job_id) const;
};

} // namespace drover::plugin
