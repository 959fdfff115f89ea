// tree_v2.cpp - cgroup v2: one unified tree; controllers are enabled down the path to each step,
// cgroup.freeze freezes and cgroup.kill (Linux 5.14) kills in one write. Devices have no
// controller: an eBPF device filter attached to the step's cgroup denies them.
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "control_files.hpp"
#include "devices.hpp"
#include "tree.hpp"

namespace drover::cgroup {

namespace {

constexpr auto kFreezeWait = std::chrono::seconds(1);
constexpr const char *kControllers[] = {"memory", "cpu", "cpuset", "io", "pids"};

class TreeV2 final : public Tree {
  public:
    explicit TreeV2(const Settings &settings)
        : Tree(settings, {Hierarchy{"", settings.mountpoint}}, 0) {}

    std::string describe() const override {
        auto text = read_file(settings_.mountpoint + "/cgroup.controllers");
        std::string names = text ? std::string(*text) : std::string();
        while (!names.empty() && names.back() == '\n') names.pop_back();
        return "cgroup v2 (" + names + ") at " + settings_.mountpoint;
    }

    void limit(Step s, const drover_cont_limits &limits) override {
        const std::string dir = step_dir(hier_[0], s);
        if (settings_.limits_memory() && limits.mem_bytes > 0) {
            const std::string value = std::to_string(settings_.memory_limit(limits.mem_bytes));
            set(s, dir + "/memory.max", value);
            if (exists(dir + "/memory.swap.max"))
                set(s, dir + "/memory.swap.max", "0"); // swap cannot extend the limit
        }
        if (settings_.constrain_cores && DROVER_HAS(drover_cont_limits, &limits, cpus) &&
            limits.cpus.len > 0)
            set(s, dir + "/cpuset.cpus", std::string(limits.cpus.ptr, limits.cpus.len));
        if (const std::vector<Device> denied = devices_to_deny(s, limits); !denied.empty())
            attach_device_filter(s, dir, denied);
    }

    void usage(Step s, drover_cont_usage &u) const override {
        const std::string dir = step_dir(hier_[0], s);
        require(s);
        if (DROVER_HAS(drover_cont_usage, &u, mem_bytes))
            u.mem_bytes = read_count(dir + "/memory.current");
        if (DROVER_HAS(drover_cont_usage, &u, max_mem_bytes))
            u.max_mem_bytes =
                exists(dir + "/memory.peak") ? read_count(dir + "/memory.peak") : u.mem_bytes;
        if (DROVER_HAS(drover_cont_usage, &u, cpu_sys_usec)) {
            u.cpu_user_usec = read_keyed(dir + "/cpu.stat", "user_usec");
            u.cpu_sys_usec = read_keyed(dir + "/cpu.stat", "system_usec");
        }
        if (DROVER_HAS(drover_cont_usage, &u, disk_write_bytes)) {
            auto text = read_file(dir + "/io.stat");
            IoBytes io = text ? parse_io_stat(*text) : IoBytes{};
            u.disk_read_bytes = io.read;
            u.disk_write_bytes = io.write;
        }
        if (DROVER_HAS(drover_cont_usage, &u, oom_kills))
            u.oom_kills = static_cast<uint32_t>(read_keyed(dir + "/memory.events", "oom_kill"));
    }

  protected:
    // A cgroup has a controller's files only when its parent enables it for its children. The
    // kernel refuses that in a cgroup that holds processes itself (other than the root): a
    // controller a Constrain key needs must be enabled, the others are best effort.
    void init_dir(const Hierarchy &h, const std::string &dir) override {
        const std::string parent = dir.substr(0, dir.rfind('/'));
        auto available = read_file(parent + "/cgroup.controllers");
        auto enabled = read_file(parent + "/cgroup.subtree_control");
        if (!available) return;
        for (const char *c : kControllers) {
            if (!lists_word(*available, c) || (enabled && lists_word(*enabled, c))) continue;
            const std::string file = parent + "/cgroup.subtree_control";
            const int e = write_file(file, std::string("+") + c);
            const bool needed = (settings_.limits_memory() && std::strcmp(c, "memory") == 0) ||
                                (settings_.constrain_cores && std::strcmp(c, "cpuset") == 0);
            if (e && needed)
                throw Error(DROVER_EIO, file + ": cannot enable " + c + ": " + std::strerror(e) +
                                            (e == EBUSY ? " (the cgroup holds processes)" : ""));
        }
    }

    bool freeze(Step s, bool frozen) override {
        const std::string dir = step_dir(hier_[0], s);
        if (write_file(dir + "/cgroup.freeze", frozen ? "1" : "0") != 0) return false;
        if (!frozen) return true;
        const auto deadline = std::chrono::steady_clock::now() + kFreezeWait;
        while (std::chrono::steady_clock::now() < deadline) {
            auto events = read_file(dir + "/cgroup.events");
            if (!events || keyed_value(*events, "frozen").value_or(0) == 1)
                return events.has_value();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return false;
    }

    bool kill_all(Step s) override {
        const std::string file = step_dir(hier_[0], s) + "/cgroup.kill";
        return exists(file) && write_file(file, "1") == 0;
    }
};

} // namespace

std::unique_ptr<Tree> make_tree_v2(const Settings &settings) {
    return std::make_unique<TreeV2>(settings);
}

} // namespace drover::cgroup
