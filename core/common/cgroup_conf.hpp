// cgroup_conf.hpp - cgroup.conf, read from beside slurm.conf: how proctrack/cgroup uses the
// kernel's control groups.
//
// Syntax as slurm.conf (Key=Value pairs, keys case-insensitive, '#' comments, trailing '\'
// continues a line). Keys Drover acts on, with Slurm's defaults:
//   CgroupMountpoint=/sys/fs/cgroup    where the hierarchies are mounted
//   CgroupPlugin=autodetect            or cgroup/v1, cgroup/v2, disabled
//   ConstrainRAMSpace=no               yes: a step's memory is limited to its allocation
//   ConstrainSwapSpace=no              yes: RAM + swap is limited to the same figure
//   ConstrainCores=no                  yes: a step runs only on its allocated CPUs
//   ConstrainDevices=no                yes: a step cannot open the GRES devices it does not hold
//   AllowedRAMSpace=100                percent of the allocation the limit allows (may be 101.5)
// Other keys Slurm documents for cgroup.conf are accepted with a warning that Drover ignores them.
#pragma once

#include <string>
#include <string_view>

namespace drover {

struct Config;

struct CgroupConf {
    std::string path; // the file read; empty when there was none
    std::string mountpoint = "/sys/fs/cgroup";
    std::string plugin = "autodetect"; // lower-cased: autodetect, cgroup/v1, cgroup/v2, disabled
    bool constrain_ram_space = false;
    bool constrain_swap_space = false;
    bool constrain_cores = false;
    bool constrain_devices = false;
    double allowed_ram_space = 100.0; // percent
};

// Whether steps see only the GPUs they hold (proctrack/cgroup with ConstrainDevices=yes): then a
// task numbers its GPUs from 0 (CUDA_VISIBLE_DEVICES, --gpu-bind=map_gpu ids), as CUDA does.
bool devices_constrained(const Config &conf);

// Parses cgroup.conf text (name is what messages call the file) into conf.cgroup, and records
// every pair in conf.raw as "cgroup.<key lower-cased>" (booleans as "yes"/"no", the plugin
// lower-cased) so plugins read them with conf_get("cgroup.ConstrainRAMSpace"). Warnings for keys
// Drover ignores go to conf.warnings. Throws ParseError "NAME:LINE: what" for a line that is not
// Key=Value pairs, a bad boolean, an unknown CgroupPlugin, an AllowedRAMSpace that is not a
// percentage from 0 to 10000, or a CgroupMountpoint that is not an absolute path.
void parse_cgroup_conf(std::string_view text, const std::string &name, Config &conf);

// Reads cgroup.conf from config_dir into conf when the file exists (nothing when it does not).
// Throws ParseError "PATH: cannot read: why" when it exists but cannot be read, and as
// parse_cgroup_conf.
void load_cgroup_conf(const std::string &config_dir, Config &conf);

} // namespace drover
