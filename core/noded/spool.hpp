// spool.hpp - what droverd keeps under SlurmdSpoolDir/<node> so that, killed and restarted, it
// finds again the batch scripts and steps it started and the ends it has not yet reported:
//
//   job<ID>/        a batch job: slurm_script, "batch" (its keeper process, container, user),
//                   "records" (the script's end, written by the keeper), "end.msg" (the report)
//   step<J>.<S>/    a step: "step" (its shepherd, container, tasks), "records" (the shepherd's
//                   task records), "end.msg"
//
// A record is written whole (a temporary file renamed over the old one), so a reader sees the old
// record or the new one, never half of it. A directory goes once the controller has acknowledged
// the report in its end.msg.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace drover {
struct Config;
}

namespace drover::noded {

using Fields = std::map<std::string, std::string>;

// <SlurmdSpoolDir>/<node>
std::string node_spool(const Config &conf, const std::string &node);

// "key=value" lines; values must not hold a newline.
bool save_fields(const std::string &path, const Fields &fields);
// Empty when the file is missing or unreadable.
Fields load_fields(const std::string &path);
uint64_t field_u64(const Fields &f, const std::string &key);

bool save_bytes(const std::string &path, std::span<const uint8_t> bytes);
std::optional<std::vector<uint8_t>> load_bytes(const std::string &path);

// A process as this boot of the machine knows it: a pid alone may since have been reused.
struct ProcessId {
    int32_t pid = 0;
    uint64_t start = 0; // clock ticks from boot to its start (/proc/PID/stat, field 22)
    std::string boot;   // /proc/sys/kernel/random/boot_id
};
// pid 0 when the process is gone.
ProcessId identify(int32_t pid);
// Numeric field (3 on: 4 the parent pid, 22 the start time) of /proc/PID/stat; nullopt when the
// process is gone.
std::optional<uint64_t> proc_stat_field(int32_t pid, int field);
bool still_running(const ProcessId &p);
void put_process(Fields &f, const ProcessId &p);
ProcessId get_process(const Fields &f);

// Sends msg to the controller, tried until acknowledged (NodeShared::tell_controller's shape).
using Tell = std::function<void(std::vector<uint8_t> msg, std::string what, int attempt,
                                std::function<void()> acked)>;

// Sends an end report until the controller acknowledges it, keeping it in dir/end.msg meanwhile
// (unless it is already there) so that a restarted droverd sends it again; once acknowledged, dir
// is removed and acked (if set) runs.
void send_kept_report(const Tell &tell, const std::string &dir, std::vector<uint8_t> msg,
                      std::string what, std::function<void()> acked, bool already_kept = false);
// The report a previous run kept in dir and had not had acknowledged.
std::optional<std::vector<uint8_t>> kept_report(const std::string &dir);

// The subdirectories of a node's spool whose names start with prefix.
std::vector<std::string> spool_entries(const std::string &node_dir, const std::string &prefix);

} // namespace drover::noded
