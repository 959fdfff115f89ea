// tres.hpp - trackable resources (Slurm's TRES) as limits name them: "cpu=4,mem=10G,node=2,
// gres/gpu=1". Counts are kept by name; memory in megabytes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace drover::ctld::policy {

// Counts by TRES name ("cpu", "mem", "node", "billing", "energy", "gres/gpu", "license/x", ...).
using Tres = std::map<std::string, uint64_t>;

// Applies a sacctmgr TRES list to tres: each "name=count" sets that TRES, "name=-1" removes it
// (Slurm's way to clear one). Memory takes a unit (M, G, T; none: M) unless minutes (a *Mins
// limit, whose memory is MB-minutes). Returns "" or the refusal, leaving tres unchanged.
std::string apply_tres(Tres &tres, std::string_view text, bool minutes = false);

// The list as stored ("cpu=4,mem=10240"), in Slurm's TRES order (cpu, mem, energy, node,
// billing, fs/disk, vmem, pages, then the rest by name); and back (unknown text: empty).
std::string tres_text(const Tres &tres);
Tres parse_stored_tres(std::string_view text);
// As sacctmgr shows it: memory with its unit ("mem=10G") unless minutes.
std::string tres_display(const Tres &tres, bool minutes = false);

} // namespace drover::ctld::policy
