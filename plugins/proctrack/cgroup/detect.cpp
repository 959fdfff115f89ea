// detect.cpp - which cgroup version to use (CgroupPlugin), and whether what the settings need
// is mounted there.
#include <cerrno>
#include <cstring>

#include "control_files.hpp"
#include "devices.hpp"
#include "tree.hpp"

namespace drover::cgroup {

namespace {

// Why a v1 controller is needed, for the message when it is missing; nullptr = optional.
const char *needed_for(const Settings &s, const std::string &controller) {
    if (controller == "freezer") return "tracking processes";
    if (controller == "memory" && s.limits_memory())
        return s.constrain_ram ? "ConstrainRAMSpace=yes" : "ConstrainSwapSpace=yes";
    if (controller == "cpuset" && s.constrain_cores) return "ConstrainCores=yes";
    if (controller == "devices" && s.constrain_devices) return "ConstrainDevices=yes";
    return nullptr;
}

std::unique_ptr<Tree> open_v1(const Settings &s, const Mounts &m) {
    std::vector<std::pair<std::string, std::string>> dirs;
    for (const char *c : {"freezer", "pids", "memory", "cpuset", "cpuacct", "blkio", "devices"}) {
        // Steps join the devices hierarchy only to be denied devices.
        if (std::strcmp(c, "devices") == 0 && !s.constrain_devices) continue;
        auto it = m.v1.find(c);
        if (it != m.v1.end()) {
            dirs.emplace_back(c, it->second);
        } else if (const char *why = needed_for(s, c)) {
            throw Error(DROVER_EIO, s.mountpoint + "/" + c + ": no cgroup v1 " + c +
                                        " hierarchy mounted (needed for " + why + ")");
        }
    }
    return make_tree_v1(s, dirs);
}

std::unique_ptr<Tree> open_v2(const Settings &s) {
    const std::string file = s.mountpoint + "/cgroup.controllers";
    auto controllers = read_file(file);
    if (!controllers) throw Error(DROVER_EIO, file + ": cannot read: " + std::strerror(errno));
    auto need = [&](const char *c, const char *why) {
        if (!lists_word(*controllers, c))
            throw Error(DROVER_EIO, file + ": the " + std::string(c) +
                                        " controller is not available (needed for " + why + ")");
    };
    if (s.limits_memory())
        need("memory", s.constrain_ram ? "ConstrainRAMSpace=yes" : "ConstrainSwapSpace=yes");
    if (s.constrain_cores) need("cpuset", "ConstrainCores=yes");
    // No devices controller in v2: each step gets an eBPF device filter, which bpf(2) must load.
    if (s.constrain_devices)
        if (std::string why = probe_device_filter(); !why.empty())
            throw Error(DROVER_EIO, "ConstrainDevices=yes: this kernel does not load a cgroup "
                                    "device filter (BPF_PROG_TYPE_CGROUP_DEVICE): " +
                                        why);
    return make_tree_v2(s);
}

} // namespace

std::unique_ptr<Tree> open_tree(const Settings &s) {
    if (s.plugin == "disabled")
        throw Error(DROVER_EINVAL, "cgroup.conf says CgroupPlugin=disabled, but proctrack/cgroup "
                                   "needs cgroups (use ProctrackType=proctrack/pgid instead)");
    if (s.plugin != "autodetect" && s.plugin != "cgroup/v1" && s.plugin != "cgroup/v2")
        throw Error(DROVER_EINVAL, "cgroup.conf: CgroupPlugin=" + s.plugin +
                                       ": expected autodetect, cgroup/v1 or cgroup/v2");
    auto text = read_file("/proc/self/mounts");
    if (!text)
        throw Error(DROVER_EIO,
                    std::string("/proc/self/mounts: cannot read: ") + std::strerror(errno));
    const Mounts m = parse_mounts(*text, s.mountpoint);

    std::unique_ptr<Tree> tree;
    if (s.plugin == "cgroup/v2") {
        if (!m.v2)
            throw Error(DROVER_EIO,
                        s.mountpoint +
                            ": no cgroup2 file system mounted here (CgroupPlugin=cgroup/v2)");
        tree = open_v2(s);
    } else if (s.plugin == "cgroup/v1") {
        tree = open_v1(s, m);
    } else {
        auto controllers = m.v2 ? read_file(s.mountpoint + "/cgroup.controllers") : std::nullopt;
        if (controllers && lists_word(*controllers, "memory"))
            tree = open_v2(s);
        else if (m.v1.count("freezer"))
            tree = open_v1(s, m);
        else
            throw Error(DROVER_EIO,
                        s.mountpoint +
                            ": neither a cgroup2 mount with the memory controller nor "
                            "a cgroup v1 freezer hierarchy (CgroupMountpoint in cgroup.conf)");
    }
    tree->prepare();
    return tree;
}

} // namespace drover::cgroup
