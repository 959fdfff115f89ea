// power_conf.hpp - slurm.conf's power saving keys, as Slurm's Power Saving and Cloud Scheduling
// guides describe them: the programs the controller runs to power nodes up and down, when it
// runs them and how fast. The controller's PowerSaver (ctld/nodes/power_save.hpp) acts on them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace drover {

// A time setting of a partition (SuspendTime, SuspendTimeout, ResumeTimeout) that is not set:
// the cluster's applies ("GLOBAL", as scontrol shows it).
inline constexpr int64_t kPowerGlobal = -2;
// SuspendTime=INFINITE (or NONE, or -1): nodes are not powered down for being idle.
inline constexpr int64_t kPowerInfinite = -1;

struct PowerSaveConf {
    // Run by the controller as SlurmUser with a hostlist argument; empty: none.
    std::string suspend_program;           // SuspendProgram
    std::string resume_program;            // ResumeProgram (SLURM_RESUME_FILE: the jobs and nodes)
    std::string resume_fail_program;       // ResumeFailProgram: the nodes that missed ResumeTimeout
    int64_t suspend_time = kPowerInfinite; // SuspendTime: seconds idle before powering down
    uint32_t suspend_timeout = 30;         // SuspendTimeout: seconds until a node is taken as off
    uint32_t resume_timeout = 60;          // ResumeTimeout: seconds a node has to register
    uint32_t resume_rate = 300;            // ResumeRate: nodes per minute; 0 = no limit
    uint32_t suspend_rate = 60;            // SuspendRate: nodes per minute; 0 = no limit
    std::string exc_nodes;                 // SuspendExcNodes as written: "hostlist[:count],..."
    std::vector<std::string> exc_parts;    // SuspendExcParts
    std::vector<std::string> exc_states;   // SuspendExcStates, upper case (DOWN, DRAIN, CLOUD, ...)
    uint32_t batch_start_timeout = 10;     // BatchStartTimeout (seconds)
    // SlurmctldParameters' power saving options.
    uint32_t interval = 10;            // power_save_interval: seconds between passes
    uint32_t min_interval = 0;         // power_save_min_interval: at least this between passes
    bool idle_on_node_suspend = false; // a node powered down becomes IDLE whatever its state
    bool cloud_reg_addrs = false;      // a registering cloud node's address is where it came from
    bool cloud_dns = false;            // cloud nodes are in DNS: no SLURM_NODE_ALIASES
    // CommunicationParameters=NoAddrCache: accepted (the controller resolves names every time).
    bool no_addr_cache = false;
    // ReconfigFlags=KeepPowerSaveSettings: scontrol reconfigure keeps SuspendExc* as changed.
    bool keep_power_save_settings = false;
};

// Whether power saving is on: SuspendTime set on the cluster or on any partition. A node can be
// powered down by hand (scontrol update State=POWER_DOWN) and allocated while powered down
// either way.
struct Config;
bool power_save_enabled(const Config &conf);

// SuspendExcNodes' sets: "n[1-8]:2,m1" -> {"n[1-8]", 2}, {"m1", 0}. Sets are split at commas
// outside brackets; a set's ":count" (at least 1) keeps that many of its nodes up, no count (0)
// all of them. Throws ParseError saying what is wrong (a bad hostlist expression, an empty set, a
// count that is not a number of at least 1). config_power.cpp.
std::vector<std::pair<std::string, uint32_t>> suspend_exc_node_sets(std::string_view spec);

// SuspendExcStates: the states named, upper case. Throws ParseError naming one that is not a
// state SuspendExcStates takes.
std::vector<std::string> suspend_exc_states(std::string_view list);

} // namespace drover
