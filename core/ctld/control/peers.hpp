// peers.hpp - the controllers of a cluster (the SlurmctldHost lines, in order): which one this
// process is, and what each says about itself when pinged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/config.hpp"
#include "net/client.hpp"

namespace drover::ctld {

// This controller's position among conf.controllers: the one named by name when given (droverctld
// --controller NAME), else the first whose address is on one of this host's interfaces, else the
// first named like this host, else 0. Throws std::runtime_error for an unknown name.
std::size_t self_index(const Config &conf, const std::string &name);

// The directory that holds controller self's state. The primary keeps it in StateSaveLocation
// itself; backup i in StateSaveLocation/backup.NAME, so that one StateSaveLocation shared by every
// controller (as Slurm sites have it, on a shared filesystem) still gives each its own LMDB
// environment: a backup fills its copy from the controller in control over the network, never by
// reading the primary's files.
std::string state_dir(const Config &conf, std::size_t self);

struct PeerStatus {
    bool up = false;
    bool active = false; // in control ("primary" in its ping reply)
    uint64_t epoch = 0;
};

// Pings controller i (blocking; for a worker thread).
PeerStatus ping_peer(const Config &conf, std::size_t i, const net::Signer &sign, int timeout_ms);

// Pings every controller but self (blocking); self's entry stays down.
std::vector<PeerStatus> ping_others(const Config &conf, std::size_t self, const net::Signer &sign,
                                    int timeout_ms);

// The address to reach controller i at.
inline std::string peer_addr(const Config &conf, std::size_t i) {
    const auto &c = conf.controllers[i];
    return c.addr.empty() ? c.name : c.addr;
}

// The ping reply's role for a controller in control and for a standby.
inline constexpr const char *kRoleActive = "primary";
inline constexpr const char *kRoleStandby = "backup";

} // namespace drover::ctld
