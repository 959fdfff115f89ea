// gres_nvml.hpp - gres.conf AutoDetect=nvml: the NVIDIA GPUs of this host as the NVIDIA
// Management Library (NVML) describes them.
//
// libnvidia-ml comes with the NVIDIA driver, not with a package Drover can depend on, so it is
// loaded at run time (dlopen) and nothing is needed to build: a host without it (or without a
// working driver) gets an error text, and the caller falls back to the /dev/nvidia<N> scan.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/gres.hpp"

namespace drover {

struct NvmlDetection {
    // One GresDevice per GPU in NVML's index order: name "gpu", type nvml_gpu_type(its name),
    // count 1, files {"/dev/nvidia<minor number>"}, cores the CPU ids of its affinity mask as
    // an index list ("0-15,32-47"; empty when NVML gives none), unique_id its UUID.
    // std::nullopt when NVML could not be used at all (error says why).
    std::optional<std::vector<GresDevice>> gpus;
    std::string error; // "cannot load NVML: libnvidia-ml.so.1: cannot open shared object ..."
    // GPUs skipped (no handle or minor number) or read in part (no name, no affinity), one
    // line each: "NVML GPU 1: no minor number: Not Supported".
    std::vector<std::string> warnings;
};

// Loads library (dlopen; kNvmlLibrary unless a test names another), initialises NVML, reads
// every GPU and shuts NVML down again. Never throws for what NVML answers.
NvmlDetection gres_detect_nvml(const std::string &library = kNvmlLibrary);

// The gres Type of a GPU named name by NVML, formed as Slurm's gpu/nvml forms it (the name in
// lower case, spaces made '_': "NVIDIA A100-SXM4-40GB" -> "nvidia_a100-sxm4-40gb"); any other
// character that a Gres= type cannot hold (',', ':', '(', ...) is made '_' as well, so that the
// type always reads back. Empty for an empty name.
std::string nvml_gpu_type(std::string_view name);

} // namespace drover
