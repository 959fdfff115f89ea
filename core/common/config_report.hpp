// config_report.hpp - what `scontrol show config` lists: every key Slurm 23.11 prints, in its
// order and with its units ("30 sec", "0 min"), Drover's value where Drover reads the key and
// Slurm's default where it does not, plus Drover's own lines (DroverVersion, StateSaveMaxSize,
// AccountingRecordsWaiting). scontrol pads each key to 23 characters, as Slurm does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/config.hpp"

namespace drover {

// What the controller knows at run time, beyond the file.
struct ConfigFacts {
    uint32_t slurm_uid = 0;     // SlurmUser's uid
    int64_t boot_time = 0;      // when this controller started (BOOT_TIME)
    uint64_t store_map_mb = 0;  // the state store's size (StateSaveMaxSize)
    uint64_t store_used_mb = 0; // and how much of it is in use
    uint64_t acct_waiting = 0;  // accounting records not yet stored (AccountingRecordsWaiting)
    // The power settings in force, where scontrol has changed them (SuspendExc*); null: the
    // configuration's.
    const PowerSaveConf *power = nullptr;
};

using ConfigLine = std::pair<std::string, std::string>; // key, value
std::vector<ConfigLine> config_report(const Config &conf, const ConfigFacts &facts);

// Whether key (any case) is one of the slurm.conf keys Slurm reports (DefMemPerNode and
// DefMemPerCPU both count): a key a site's file may carry that Drover does not read is Slurm's, not
// unknown.
bool is_slurm_key(std::string_view key);

} // namespace drover
