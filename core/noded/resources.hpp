// resources.hpp - what this machine really has, as droverd registers it.
#pragma once

#include <cstdint>
#include <string>

namespace drover::noded {

struct Resources {
    uint32_t cpus = 1;
    uint64_t real_memory_mb = 0;
    uint64_t tmp_disk_mb = 0;
    int64_t boot_time = 0;
    std::string os;
};

// Reads online CPUs, physical memory, the size of tmp_fs and the boot time.
Resources detect_resources(const std::string &tmp_fs);

// The generic resources this node really has, from gres.conf beside slurm.conf (devices named
// by File= count only when the file exists; AutoDetect=nvidia adds /dev/nvidiaN), formatted
// "gpu:2,gpu:a100:1". Empty when there is no gres.conf. Throws ParseError for a bad gres.conf.
std::string detect_gres(const std::string &config_path, const std::string &node);

} // namespace drover::noded
