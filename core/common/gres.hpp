// gres.hpp - generic resources (GPUs and the like): gres.conf, slurm.conf Gres= strings, job
// requests (--gres) and index lists.
//
// gres.conf, as Slurm reads it: one record per line of Key=Value pairs (keys case-insensitive,
// '#' starts a comment, a trailing '\' joins the next line):
//   NodeName=gpu[01-04] Name=gpu Type=a100 File=/dev/nvidia[0-3] Cores=0-7
//   Name=gpu Count=2                      (no NodeName: every node)
//   AutoDetect=nvml                       (alone on a line: the default for every node)
//   NodeName=gpu05 AutoDetect=nvidia      (with NodeName only: that node's setting)
// AutoDetect accepts off (the default), nvml and nvidia, which find the host's own GPUs
// (droverd): nvml asks NVIDIA's management library (gres_nvml.hpp) for each GPU's device file,
// type and CPU affinity, and looks for /dev/nvidia<N> device files as nvidia does when that
// library cannot be loaded; other Slurm mechanisms (rsmi, oneapi, nrt, nvidia_smi...) are
// accepted with a warning and read as off.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drover {

// One gres.conf record as it applies to a node: Count units of Name[:Type], on these device
// files (empty for count-only resources) and near these cores ("0-7", as written; empty = any).
struct GresDevice {
    std::string name;
    std::string type;               // empty = untyped
    uint64_t count = 0;             // the number of files when File= is given
    std::vector<std::string> files; // File= expanded ("/dev/nvidia[0-1]" -> two names)
    std::string cores;              // Cores= (or the older CPUs=) as written
    std::string unique_id;          // what AutoDetect=nvml reads ("GPU-<uuid>"); empty otherwise
};

// One gres.conf line that names resources.
struct GresConfEntry {
    std::vector<std::string> nodes; // NodeName= expanded; empty = every node
    GresDevice device;
    unsigned line = 0; // where it was written (1-based)
};

// An AutoDetect setting; nodes empty = the default for every node.
struct GresAutoDetect {
    std::vector<std::string> nodes;
    std::string mode; // "off", "nvml" or "nvidia" (lower-cased)
    unsigned line = 0;
};

struct GresConf {
    std::vector<GresConfEntry> entries;     // in file order
    std::vector<GresAutoDetect> autodetect; // in file order; the last that names a node wins
    std::vector<std::string> warnings;      // "gres.conf:3: AutoDetect=rsmi is not supported..."
};

// Parses gres.conf text. name is what messages call the file ("gres.conf" or its path). Throws
// ParseError "NAME:LINE: what" for a line that is not Key=Value pairs, an unknown key, a record
// without Name=, a bad hostlist or File= range, a bad Count=, or a Count= that disagrees with the
// number of files.
GresConf parse_gres_conf(std::string_view text, const std::string &name = "gres.conf");

// Reads and parses a gres.conf file (messages name the path). Throws ParseError when it cannot
// be read, and as parse_gres_conf.
GresConf load_gres_conf(const std::string &path);

// The records that apply to node, in file order (lines with no NodeName apply to every node).
std::vector<GresDevice> gres_for_node(const GresConf &conf, const std::string &node);

// The AutoDetect mode for node: "off", "nvml" or "nvidia".
std::string gres_autodetect_mode(const GresConf &conf, const std::string &node);

// The NVIDIA GPU device files in dev_dir ("/dev/nvidia0", "/dev/nvidia1", ... : digits only, so
// nvidiactl and nvidia-uvm are not GPUs), one GresDevice{name "gpu", count 1} each, in numeric
// order. Empty when there are none or dev_dir cannot be read.
std::vector<GresDevice> gres_detect_nvidia(const std::string &dev_dir = "/dev");

// The NVIDIA Management Library as AutoDetect=nvml loads it (dlopen).
inline constexpr const char *kNvmlLibrary = "libnvidia-ml.so.1";

// What droverd should report for this host: gres_for_node, plus, when the node's AutoDetect mode
// is nvml or nvidia, each detected GPU whose device file no record already names. nvml: the GPUs
// NVML reports (gres_detect_nvml, from nvml_library), typed; when NVML cannot be used, a warning
// and the untyped GPUs of gres_detect_nvidia(dev_dir). nvidia: gres_detect_nvidia(dev_dir).
// warnings (when given) gets what went wrong along the way, one line each.
std::vector<GresDevice> gres_for_this_node(const GresConf &conf, const std::string &node,
                                           const std::string &dev_dir = "/dev",
                                           std::vector<std::string> *warnings = nullptr,
                                           const std::string &nvml_library = kNvmlLibrary);

// Whether c may be part of a gres name or type: letters, digits, '_', '-', '.' and '+'.
bool is_gres_name_char(char c);

// name[:type]:count, the unit of slurm.conf Gres= strings and of job requests.
struct GresCount {
    std::string name;
    std::string type; // empty = untyped (any type)
    uint64_t count = 0;
    std::string affinity; // a node's "(S:0-1)": what the parentheses hold ("S:0-1"); empty = none
    bool operator==(const GresCount &) const = default;
};

// A slurm.conf NodeName Gres= value: "gpu:4", "gpu:a100:2,nic:1", "gpu:a100:2(S:0-1)", "gpu"
// (count 1), "bandwidth:4G" (K, M, G, T, P multiply by powers of 1024). "" and "none" give an
// empty list. Throws ParseError "bad Gres 'TEXT': what" for an empty item, a bad name, type or
// count, unbalanced parentheses or more than three ':' fields.
std::vector<GresCount> parse_node_gres(std::string_view spec);

// A job's per-node request (--gres): "gpu:2", "gpu:a100:1,nic:1", "gpu" (1), "gpu:a100" (1);
// an optional "gres/" or "gres:" before a name is dropped (--tres-per-node spelling). "" and
// "none" give an empty list; a zero count ("gpu:0") requests nothing and its item is dropped, as
// Slurm ignores it. Throws ParseError "invalid --gres 'TEXT': what" for an empty item, a bad
// name, type or count (a signed one such as "gpu:-1" included: it is never a type), a count past
// 2^64 - 3, or more than three ':' fields.
std::vector<GresCount> parse_gres_request(std::string_view spec);

// Whether parse_gres_request accepts spec. What the commands and the controller answer when it
// does not is Slurm's text for ESLURM_INVALID_GRES, kInvalidGres.
bool valid_gres_request(std::string_view spec);
inline constexpr const char *kInvalidGres = "Invalid generic resource (gres) specification";

// The total count of name over items (every type), e.g. gres_total(parse_node_gres("gpu:a:2,
// gpu:b:2"), "gpu") == 4.
uint64_t gres_total(const std::vector<GresCount> &items, std::string_view name);

// Writes items back as "gpu:a100:2,nic:1" (affinity in parentheses after the count).
std::string format_gres(const std::vector<GresCount> &items);

// An index list: sorted, duplicates dropped, runs joined: {3,0,1} -> "0-1,3"; {} -> "".
std::string format_index_list(std::vector<uint32_t> indexes);

// Reads an index list back ("0-1,3" -> {0,1,3}); throws ParseError for anything else.
std::vector<uint32_t> parse_index_list(std::string_view text);

// The GPU indexes in an allocation's gres ("gpu:0-1,nic:0" -> "0,1"), as CUDA_VISIBLE_DEVICES
// lists them; empty when it holds no GPU.
std::string gpu_indexes(const std::string &alloc_gres);

// The same indexes as numbers, ascending ("gpu:3,0-1" -> {0, 1, 3}).
std::vector<uint32_t> gpu_index_list(std::string_view alloc_gres);

// One item of what a job or step holds on a node: a name ("gpu", or "gpu:a100") and the units'
// indexes ("gpu:0-1,3" -> {"gpu", {0, 1, 3}}).
struct HeldGres {
    std::string name;
    std::vector<uint32_t> indexes;
};

// An allocation's gres on a node ("gpu:0-1,3,nic:0") as items; items that hold a count rather
// than indexes, or that cannot be read, are left out.
std::vector<HeldGres> parse_held_gres(std::string_view held);

// What a job holds over all its nodes, by name in the order first seen: {"gpu:0-1", "gpu:0,2"}
// -> "gpu:4"; empty when it holds none.
std::string held_gres_totals(const std::vector<std::string> &per_node);

// Totals as Slurm's TRES items: "gpu:2,nic:1" -> "gres/gpu=2,gres/nic=1".
std::string gres_as_tres(std::string_view totals);

} // namespace drover
