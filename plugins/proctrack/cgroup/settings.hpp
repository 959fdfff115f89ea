// settings.hpp - what proctrack/cgroup takes from the host: cgroup.conf keys (which the core
// exposes as "cgroup.<Key>"), and the cluster and node names its directories are named after.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <drover/plugin.hpp>

namespace drover::cgroup {

struct Settings {
    std::string mountpoint = "/sys/fs/cgroup"; // CgroupMountpoint
    std::string plugin = "autodetect";         // CgroupPlugin, lower-cased
    bool constrain_ram = false;                // ConstrainRAMSpace
    bool constrain_swap = false;               // ConstrainSwapSpace
    bool constrain_cores = false;              // ConstrainCores
    bool constrain_devices = false;            // ConstrainDevices
    double allowed_ram_percent = 100.0;        // AllowedRAMSpace
    std::string cluster = "default";           // ClusterName (lower-cased), when set
    std::string node;                          // drover.node_name, else the short hostname

    // Whether cont_limit sets a memory limit: either constraint asks for one (RAM and swap are
    // always limited together, so swap cannot extend the limit).
    bool limits_memory() const { return constrain_ram || constrain_swap; }
    // The memory limit for an allocation of alloc_bytes: AllowedRAMSpace percent of it.
    uint64_t memory_limit(uint64_t alloc_bytes) const;
};

// Reads the settings through conf_get. Throws std::runtime_error with one line naming the key
// for a value it cannot use (the core has checked cgroup.conf already; this guards other hosts).
Settings read_settings(const drover::sdk::Host &host);

} // namespace drover::cgroup
