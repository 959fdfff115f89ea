// tree_v1.cpp - cgroup v1: one hierarchy per controller (freezer tracks and freezes, memory,
// cpuset and devices limit, memory, cpuacct and blkio measure).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "control_files.hpp"
#include "tree.hpp"

namespace drover::cgroup {

namespace {

constexpr auto kFreezeWait = std::chrono::seconds(1);

// The controllers used, in the order processes join them (freezer first: it tracks).
constexpr const char *kControllers[] = {"freezer", "pids",  "memory", "cpuset",
                                        "cpuacct", "blkio", "devices"};

bool blank(const std::optional<std::string> &text) {
    return !text || text->find_first_not_of(" \t\n") == std::string::npos;
}

class TreeV1 final : public Tree {
  public:
    TreeV1(const Settings &settings, std::vector<Hierarchy> h, size_t procs)
        : Tree(settings, std::move(h), procs) {}

    std::string describe() const override {
        std::string names;
        for (const Hierarchy &h : hier_) names += (names.empty() ? "" : " ") + h.controller;
        return "cgroup v1 (" + names + ") under " + settings_.mountpoint;
    }

    void limit(Step s, const drover_cont_limits &limits) override {
        if (settings_.limits_memory() && limits.mem_bytes > 0)
            set_memory(s, settings_.memory_limit(limits.mem_bytes));
        if (settings_.constrain_cores && DROVER_HAS(drover_cont_limits, &limits, cpus) &&
            limits.cpus.len > 0) {
            set(s, step_dir(*find("cpuset"), s) + "/cpuset.cpus",
                std::string(limits.cpus.ptr, limits.cpus.len));
        }
        const std::vector<Device> denied = devices_to_deny(s, limits);
        const Hierarchy *devices = find("devices");
        if (!denied.empty() && !devices)
            throw Error(DROVER_EIO, step_label(s) + ": ConstrainDevices: no devices hierarchy");
        for (const Device &d : denied) // one rule a write: the kernel reads one
            set(s, step_dir(*devices, s) + "/devices.deny", deny_line(d));
    }

    void usage(Step s, drover_cont_usage &u) const override {
        require(s);
        if (const Hierarchy *m = find("memory")) {
            const std::string dir = step_dir(*m, s);
            if (DROVER_HAS(drover_cont_usage, &u, mem_bytes))
                u.mem_bytes = read_count(dir + "/memory.usage_in_bytes");
            if (DROVER_HAS(drover_cont_usage, &u, max_mem_bytes))
                u.max_mem_bytes = read_count(dir + "/memory.max_usage_in_bytes");
            if (DROVER_HAS(drover_cont_usage, &u, oom_kills))
                u.oom_kills =
                    static_cast<uint32_t>(read_keyed(dir + "/memory.oom_control", "oom_kill"));
        }
        if (const Hierarchy *c = find("cpuacct");
            c && DROVER_HAS(drover_cont_usage, &u, cpu_sys_usec)) {
            const std::string dir = step_dir(*c, s);
            if (exists(dir + "/cpuacct.usage_user")) {
                u.cpu_user_usec = read_count(dir + "/cpuacct.usage_user") / 1000;
                u.cpu_sys_usec = read_count(dir + "/cpuacct.usage_sys") / 1000;
            } else {
                const uint64_t hz = static_cast<uint64_t>(::sysconf(_SC_CLK_TCK));
                u.cpu_user_usec = read_keyed(dir + "/cpuacct.stat", "user") * 1000000 / hz;
                u.cpu_sys_usec = read_keyed(dir + "/cpuacct.stat", "system") * 1000000 / hz;
            }
        }
        if (const Hierarchy *b = find("blkio");
            b && DROVER_HAS(drover_cont_usage, &u, disk_write_bytes)) {
            auto text = read_file(step_dir(*b, s) + "/blkio.throttle.io_service_bytes");
            IoBytes io = text ? parse_blkio_bytes(*text) : IoBytes{};
            u.disk_read_bytes = io.read;
            u.disk_write_bytes = io.write;
        }
    }

  protected:
    // cpuset: a new cgroup has no CPUs and no memory nodes, and refuses tasks until given some:
    // copy the parent's.
    void init_dir(const Hierarchy &h, const std::string &dir) override {
        if (h.controller != "cpuset") return;
        const std::string parent = dir.substr(0, dir.rfind('/'));
        for (const char *name : {"/cpuset.cpus", "/cpuset.mems"}) {
            if (!blank(read_file(dir + name))) continue;
            auto value = read_file(parent + name);
            if (blank(value))
                throw Error(DROVER_EIO, parent + name + ": empty, nothing to copy to " + dir);
            if (int e = write_file(dir + name, *value))
                throw Error(DROVER_EIO, dir + name + ": cannot set: " + std::strerror(e));
        }
    }

    bool freeze(Step s, bool frozen) override {
        const Hierarchy *f = find("freezer");
        if (!f) return false;
        const std::string state = step_dir(*f, s) + "/freezer.state";
        if (write_file(state, frozen ? "FROZEN" : "THAWED") != 0) return false;
        if (!frozen) return true;
        const auto deadline = std::chrono::steady_clock::now() + kFreezeWait;
        while (std::chrono::steady_clock::now() < deadline) {
            auto now = read_file(state);
            if (!now || now->compare(0, 6, "FROZEN") == 0) return now.has_value();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return false;
    }

  private:
    // memory.limit_in_bytes and memory.memsw.limit_in_bytes to the same figure, so swap cannot
    // extend the limit. The kernel keeps memsw >= limit at every step, so the order depends on
    // whether the limit goes down or up: try one order, and on EINVAL the other.
    void set_memory(Step s, uint64_t bytes) {
        const std::string dir = step_dir(*find("memory"), s);
        const std::string value = std::to_string(bytes);
        std::vector<std::string> files = {dir + "/memory.limit_in_bytes"};
        if (exists(dir + "/memory.memsw.limit_in_bytes"))
            files.push_back(dir + "/memory.memsw.limit_in_bytes");
        int e = 0;
        std::string failed;
        for (int attempt = 0; attempt < 2; ++attempt) {
            e = 0;
            for (const std::string &f : files) {
                if (int w = write_file(f, value); w && !e) {
                    e = w;
                    failed = f;
                }
            }
            if (e != EINVAL) break;
            std::reverse(files.begin(), files.end());
        }
        if (e)
            throw Error(DROVER_EIO, step_label(s) + ": " + failed + ": cannot set to " + value +
                                        ": " + std::strerror(e));
    }
};

} // namespace

std::unique_ptr<Tree> make_tree_v1(const Settings &settings,
                                   const std::vector<std::pair<std::string, std::string>> &dirs) {
    std::vector<Tree::Hierarchy> h;
    for (const char *c : kControllers)
        for (const auto &[controller, dir] : dirs)
            if (controller == c) h.push_back({controller, dir});
    size_t procs = 0;
    for (size_t i = 0; i < h.size(); ++i)
        if (h[i].controller == "freezer") {
            procs = i;
            break;
        }
    return std::make_unique<TreeV1>(settings, std::move(h), procs);
}

} // namespace drover::cgroup
