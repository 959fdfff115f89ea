// control_files.hpp - reading and writing cgroup control files, and the formats they hold.
//
// The parsers take file text and do no I/O, so the unit tests check them on fixture files of
// both cgroup versions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drover::cgroup {

// The whole of a (small) file, or nullopt with errno set when it cannot be read.
std::optional<std::string> read_file(const std::string &path);
// Writes value to a control file in one write(2). Returns 0 or the errno of the failure.
int write_file(const std::string &path, std::string_view value);
bool exists(const std::string &path);
// The count in a file (parse_count), or 0 when it cannot be read or holds none.
uint64_t read_count(const std::string &path);
// keyed_value of a file, or 0 when it cannot be read or has no such line.
uint64_t read_keyed(const std::string &path, std::string_view key);

// A decimal count at the start of text ("123\n"); "max" (cgroup v2's no limit) and anything
// else that is not a number give nullopt.
std::optional<uint64_t> parse_count(std::string_view text);
// The value of `key` in "key value" lines (memory.oom_control, memory.events, cpu.stat,
// cpuacct.stat), or nullopt when no line names it.
std::optional<uint64_t> keyed_value(std::string_view text, std::string_view key);
// The pids of a cgroup.procs file, one a line, in file order.
std::vector<int32_t> parse_pids(std::string_view text);

struct IoBytes {
    uint64_t read = 0;
    uint64_t write = 0;
    bool operator==(const IoBytes &) const = default;
};
// cgroup v1 blkio.throttle.io_service_bytes: "8:0 Read 4096" lines, summed over devices (the
// "Total" line and the other operations are skipped).
IoBytes parse_blkio_bytes(std::string_view text);
// cgroup v2 io.stat: "8:0 rbytes=4096 wbytes=0 rios=1 ..." lines, summed over devices.
IoBytes parse_io_stat(std::string_view text);

// Whether a space-separated list (cgroup v2 cgroup.controllers) names `controller`.
bool lists_word(std::string_view text, std::string_view controller);

// What /proc/self/mounts says about the hierarchies under mountpoint.
struct Mounts {
    bool v2 = false;                       // a cgroup2 mount exactly at mountpoint
    std::map<std::string, std::string> v1; // controller -> directory of its v1 mount
};
// Reads mounts text (the format of /proc/self/mounts). v1 mounts count only when their directory
// is mountpoint/<something>; their controllers come from the mount options ("rw,cpu,cpuacct"
// names both). A co-mounted controller maps to the shared directory unless mountpoint/<name>
// is itself a v1 mount of it.
Mounts parse_mounts(std::string_view text, const std::string &mountpoint);

} // namespace drover::cgroup
