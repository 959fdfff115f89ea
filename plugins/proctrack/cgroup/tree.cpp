// tree.cpp - what cgroup v1 and v2 share: the step directories, moving processes in, listing,
// signalling under a freeze, and removal.
#include "tree.hpp"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "control_files.hpp"
#include "devices.hpp"

namespace drover::cgroup {

namespace {

using Clock = std::chrono::steady_clock;

// How long destroy waits for killed processes to leave, and for a cgroup to stop being busy.
constexpr auto kExitWait = std::chrono::seconds(2);
constexpr auto kPoll = std::chrono::milliseconds(5);

std::string step_name(uint32_t step) {
    if (step == DROVER_STEP_BATCH) return "batch";
    if (step == DROVER_STEP_EXTERN) return "extern";
    return std::to_string(step);
}

std::string parent_of(const std::string &dir) {
    return dir.substr(0, dir.rfind('/'));
}

std::string why(int e) {
    return std::strerror(e);
}

} // namespace

std::string step_path(Step s) {
    return "job_" + std::to_string(s.job) + "/step_" + step_name(s.step);
}

std::string step_label(Step s) {
    return "job " + std::to_string(s.job) + " step " + step_name(s.step);
}

Tree::Tree(const Settings &settings, std::vector<Hierarchy> hierarchies, size_t procs_index)
    : settings_(settings), hier_(std::move(hierarchies)), procs_(procs_index) {}

std::string Tree::node_dir(const Hierarchy &h) const {
    return h.root + "/drover/" + settings_.cluster + "/" + settings_.node;
}

std::string Tree::step_dir(const Hierarchy &h, Step s) const {
    return node_dir(h) + "/" + step_path(s);
}

const Tree::Hierarchy *Tree::find(const std::string &controller) const {
    for (const Hierarchy &h : hier_)
        if (h.controller == controller) return &h;
    return nullptr;
}

void Tree::make_dir(const Hierarchy &h, const std::string &dir, Step s) {
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
        const int e = errno;
        std::string who = s.job ? step_label(s) + ": " : std::string();
        throw Error(e == EACCES || e == EPERM || e == EROFS ? DROVER_EPERM : DROVER_EIO,
                    who + dir + ": cannot create: " + why(e));
    }
    init_dir(h, dir);
}

// Creates <root>/drover, the cluster's and this node's directories. Another process may remove an
// empty one of them between two steps (another cluster's daemon or test cleaning up after
// itself on the same host): then the path is made again, a few times at most.
void Tree::make_node_dir(const Hierarchy &h) {
    const std::string dir = node_dir(h);
    for (int attempt = 1;; ++attempt) {
        try {
            make_dir(h, h.root + "/drover", {});
            make_dir(h, parent_of(dir), {});
            make_dir(h, dir, {});
            return;
        } catch (const Error &) {
            if (attempt >= 5 || exists(parent_of(dir))) throw;
        }
    }
}

void Tree::prepare() {
    for (const Hierarchy &h : hier_) {
        make_node_dir(h);
        const std::string dir = node_dir(h);
        struct statvfs vfs {};
        if (::statvfs(dir.c_str(), &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
            throw Error(DROVER_EPERM, h.root + ": the cgroup file system is mounted read-only");
        if (::access((dir + "/cgroup.procs").c_str(), W_OK) != 0)
            throw Error(DROVER_EPERM, dir + "/cgroup.procs: not writable: " + why(errno));
        sweep(h);
    }
}

// Removes the empty step and job directories under this node's directory (rmdir refuses the
// busy ones, which is what keeps running steps safe).
void Tree::sweep(const Hierarchy &h) {
    const std::string base = node_dir(h);
    DIR *d = ::opendir(base.c_str());
    if (!d) return;
    std::vector<std::string> jobs;
    while (const dirent *e = ::readdir(d))
        if (std::strncmp(e->d_name, "job_", 4) == 0) jobs.push_back(base + "/" + e->d_name);
    ::closedir(d);
    for (const std::string &job : jobs) {
        if (DIR *j = ::opendir(job.c_str())) {
            std::vector<std::string> steps;
            while (const dirent *e = ::readdir(j))
                if (std::strncmp(e->d_name, "step_", 5) == 0)
                    steps.push_back(job + "/" + e->d_name);
            ::closedir(j);
            for (const std::string &step : steps) ::rmdir(step.c_str());
        }
        ::rmdir(job.c_str());
    }
}

void Tree::create(Step s, int32_t pid) {
    for (const Hierarchy &h : hier_) {
        const std::string dir = step_dir(h, s);
        make_dir(h, parent_of(dir), s);
        // A directory left by an earlier use of this step id starts again with fresh counters
        // when it is empty; one that still holds processes is joined.
        if (exists(dir)) ::rmdir(dir.c_str());
        make_dir(h, dir, s);
    }
    const std::string text = std::to_string(pid);
    for (const Hierarchy &h : hier_) {
        const std::string procs = step_dir(h, s) + "/cgroup.procs";
        if (int e = write_file(procs, text)) {
            // The caller kills pid and refuses the launch: leave no empty directories behind.
            for (const Hierarchy &other : hier_) {
                ::rmdir(step_dir(other, s).c_str());
                ::rmdir(parent_of(step_dir(other, s)).c_str());
            }
            if (e == ESRCH)
                throw Error(DROVER_ENOENT, step_label(s) + ": pid " + text + " has exited");
            throw Error(DROVER_EIO,
                        step_label(s) + ": " + procs + ": cannot add pid " + text + ": " + why(e));
        }
    }
}

void Tree::set(Step s, const std::string &file, const std::string &value) {
    if (int e = write_file(file, value))
        throw Error(e == EINVAL ? DROVER_EINVAL : DROVER_EIO,
                    step_label(s) + ": " + file + ": cannot set to '" + value + "': " + why(e));
}

void Tree::require(Step s) const {
    const std::string dir = step_dir(hier_[procs_], s);
    if (!exists(dir)) throw Error(DROVER_ENOENT, step_label(s) + ": no container at " + dir);
}

std::vector<Device> Tree::devices_to_deny(Step s, const drover_cont_limits &limits) const {
    if (!settings_.constrain_devices || !DROVER_HAS(drover_cont_limits, &limits, deny_devices) ||
        limits.deny_devices.len == 0)
        return {};
    return devices_of(s, std::string_view(limits.deny_devices.ptr, limits.deny_devices.len));
}

std::vector<int32_t> Tree::pids(Step s) const {
    const std::string procs = step_dir(hier_[procs_], s) + "/cgroup.procs";
    auto text = read_file(procs);
    if (!text) {
        const int e = errno;
        throw Error(e == ENOENT ? DROVER_ENOENT : DROVER_EIO,
                    step_label(s) + ": " + procs + ": " + why(e));
    }
    return parse_pids(*text);
}

void Tree::signal(Step s, int sig) {
    const std::string where = step_dir(hier_[procs_], s);
    if (pids(s).empty())
        throw Error(DROVER_ENOENT, step_label(s) + ": no process left in " + where);
    if (sig == SIGKILL && kill_all(s)) return;
    // Frozen, nothing can fork between the listing and the signals.
    freeze(s, true);
    int sent = 0, failure = 0;
    for (int32_t pid : pids(s)) {
        if (::kill(pid, sig) == 0)
            ++sent;
        else if (errno != ESRCH)
            failure = errno;
    }
    freeze(s, false);
    if (sent > 0) return;
    if (failure)
        throw Error(failure == EPERM ? DROVER_EPERM : DROVER_EIO,
                    step_label(s) + ": signal " + std::to_string(sig) + ": " + why(failure));
    throw Error(DROVER_ENOENT, step_label(s) + ": no process left in " + where);
}

void Tree::destroy(Step s) {
    const std::string where = step_dir(hier_[procs_], s);
    if (exists(where)) {
        freeze(s, false); // a frozen process could never exit
        const auto deadline = Clock::now() + kExitWait;
        size_t left = pids(s).size();
        while (left > 0 && Clock::now() < deadline) {
            std::this_thread::sleep_for(kPoll);
            left = pids(s).size();
        }
        if (left > 0)
            throw Error(DROVER_EBUSY, step_label(s) + ": " + std::to_string(left) +
                                          " processes still in " + where);
    }
    std::string failed;
    for (const Hierarchy &h : hier_) {
        const std::string dir = step_dir(h, s);
        const auto deadline = Clock::now() + kExitWait;
        int e = 0;
        while (::rmdir(dir.c_str()) != 0 && (e = errno) == EBUSY && Clock::now() < deadline)
            std::this_thread::sleep_for(kPoll);
        if (e != 0 && e != ENOENT && exists(dir) && failed.empty())
            failed = dir + ": cannot remove: " + why(e);
        ::rmdir(parent_of(dir).c_str()); // the job's, once its last step is gone
    }
    if (!failed.empty()) throw Error(DROVER_EIO, step_label(s) + ": " + failed);
}

} // namespace drover::cgroup
