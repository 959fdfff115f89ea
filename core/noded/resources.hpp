// resources.hpp - what this machine really has, as droverd registers it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "common/gres.hpp"

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

// The generic resources this node really has: gres.conf beside slurm.conf merged with what its
// AutoDetect finds (gres_for_this_node), each device file that does not exist dropped.
struct NodeGres {
    std::string conf_path;           // DIR/gres.conf, DIR that of slurm.conf
    bool has_conf = false;           // whether it exists (no gres.conf: no devices)
    std::vector<GresDevice> devices; // files = those that exist, count = their number
    // gres.conf's own, AutoDetect's (NVML could not be loaded...) and one per missing file.
    std::vector<std::string> warnings;
};

// Reads gres.conf for node. Throws ParseError for a bad gres.conf.
NodeGres find_node_gres(const std::string &config_path, const std::string &node,
                        const std::string &nvml_library = kNvmlLibrary);

// find_node_gres summed by name and type, formatted "gpu:2,gpu:a100:1" (a name whose files are
// all missing stays, with count 0); warnings are logged. Empty when there is no gres.conf.
// gpu_files, when given, gets the node's GPU device files in GPU index order, and gpu_cores
// each GPU's Cores= (as written; empty: none). Throws ParseError for a bad gres.conf.
std::string detect_gres(const std::string &config_path, const std::string &node,
                        std::vector<std::string> *gpu_files = nullptr,
                        std::vector<std::string> *gpu_cores = nullptr);

// The GPU device files a step holding held (its GRES here: "gpu:0-1,nic:0") may not open: those
// of gpu_files (the node's, by GPU index) whose index it does not hold, comma-separated.
std::string denied_gpu_files(const std::vector<std::string> &gpu_files, const std::string &held);

// droverd -G: one line per unit, as Slurm's slurmd -G prints them: a device with files gives a
// line per file (Count=1), one without files a single line with its count; units of no count
// are left out. Index is the unit's place among this node's units of that name that have a file
// (from 0); what is not known reads (null):
//   Gres Name=gpu Type=nvidia_a100-sxm4-40gb Count=1 Index=0 File=/dev/nvidia0 Cores=0-15
//   UniqueId=GPU-0a1b...      (all one line)
//   Gres Name=nic Type=(null) Count=2 Index=(null) File=(null) Cores=(null) UniqueId=(null)
std::vector<std::string> gres_report_lines(const std::vector<GresDevice> &devices);

// droverd -G for node: gres_report_lines on out, each warning on err ("droverd: warning: ...")
// and, without a gres.conf, a note there. Throws ParseError for a bad gres.conf.
void print_node_gres(const std::string &config_path, const std::string &node, std::FILE *out,
                     std::FILE *err);

} // namespace drover::noded
