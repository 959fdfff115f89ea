// power_exclusions.hpp - the nodes power saving leaves up: SuspendExcNodes, SuspendExcParts and
// SuspendExcStates as in force. slurm.conf gives them; scontrol update changes them (=, += or
// -=), and the change is kept in the state store, so that a restart or a takeover keeps it;
// scontrol reconfigure sets them back to the file's unless ReconfigFlags=KeepPowerSaveSettings.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/bitmap.hpp"
#include "common/power_conf.hpp"
#include "common/status.hpp"

namespace drover::ctld {

struct Ctx;
struct Node;
class NodeManager;

class PowerExclusions {
  public:
    PowerExclusions(const Ctx &ctx, const NodeManager &nodes);

    // The stored record over slurm.conf's; a cold start drops it.
    void recover(bool cold_start);
    // scontrol update: key is SuspendExcNodes, SuspendExcParts or SuspendExcStates (any case),
    // op "=", "+=" or "-="; refused, in force as it was, when a name or state is unknown.
    Status update(std::string_view key, std::string_view op, std::string_view value);
    // scontrol reconfigure has read file: its exclusions, unless it keeps the ones in force.
    void reconfigured(const PowerSaveConf &file);

    // The power settings in force: the configuration's, with the exclusions as they are now.
    const PowerSaveConf &settings() const { return in_force_; }
    // Nodes not to power down for idleness now: SuspendExcNodes (a set with a count keeps that
    // many of its usable nodes up) and the nodes of SuspendExcParts.
    Bitmap excluded() const;
    // Whether a state of SuspendExcStates keeps the node up.
    bool excluded_state(const Node &n) const;

  private:
    Status apply(std::string_view key, std::string_view op, std::string_view value);
    std::string nodes_after(std::string_view op, std::string_view value) const;
    std::vector<std::string> parts_after(std::string_view op, std::string_view value) const;
    void resolve(); // SuspendExcNodes' sets to node positions
    void save();    // the record, in the current batch

    const Ctx &ctx_;
    const NodeManager &nodes_;
    PowerSaveConf in_force_;
    struct ExcSet {
        std::vector<uint32_t> nodes;
        uint32_t count = 0; // keep that many of them up; 0: all
    };
    std::vector<ExcSet> sets_;
};

} // namespace drover::ctld
