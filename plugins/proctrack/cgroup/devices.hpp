// devices.hpp - ConstrainDevices on the host: the device files a step may not open, found with
// stat(2), and the cgroup v2 device filter loaded and attached with bpf(2).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "device_filter.hpp"
#include "tree.hpp"

namespace drover::cgroup {

// The devices of a comma-separated list of absolute paths ("/dev/nvidia1,/dev/nvidia3"), in list
// order (empty items are skipped). Throws Error(DROVER_EINVAL) naming the first path that is
// missing or is not a character or block device.
std::vector<Device> devices_of(Step s, std::string_view paths);

// Loads device_filter(denied) and attaches it to the cgroup directory dir (BPF_CGROUP_DEVICE,
// BPF_F_ALLOW_MULTI, so filters of the cgroups above still apply). The attachment holds the
// program until the cgroup is removed. Throws Error(DROVER_EIO) with errno's text.
void attach_device_filter(Step s, const std::string &dir, const std::vector<Device> &denied);

// Whether this kernel loads a device filter: empty, or why not (for the check at start).
std::string probe_device_filter();

} // namespace drover::cgroup
