// device_filter.hpp - the devices a step may not open (ConstrainDevices), as cgroup v1
// devices.deny lines and as the cgroup v2 device filter: an eBPF program of type
// BPF_PROG_TYPE_CGROUP_DEVICE. Pure functions, no I/O, so the unit tests check their shape.
#pragma once

#include <linux/bpf.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace drover::cgroup {

// One device, as the kernel names it: its type and numbers (not its path).
struct Device {
    char type = 'c'; // 'c' a character device, 'b' a block device
    uint32_t major = 0;
    uint32_t minor = 0;
    bool operator==(const Device &) const = default;
};

// "c 195:1 rwm": the devices.deny line that forbids reading, writing and mknod of d.
std::string deny_line(const Device &d);

// The shape of device_filter's program: it loads the context, tests each device in turn, and
// allows what none of them matched.
constexpr size_t kFilterPrologueInsns = 4;  // type, major and minor into registers
constexpr size_t kFilterInsnsPerDevice = 5; // three compares, then "return 0"
constexpr size_t kFilterEpilogueInsns = 2;  // "return 1"

// A BPF_PROG_TYPE_CGROUP_DEVICE program that returns 0 (deny) for any access to one of denied
// (matched on type, major and minor) and 1 (allow) for every other device.
std::vector<bpf_insn> device_filter(const std::vector<Device> &denied);

} // namespace drover::cgroup
