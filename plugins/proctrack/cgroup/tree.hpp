// tree.hpp - the cgroup directories of one node daemon's steps, in cgroup v1 or v2.
//
// Layout: <hierarchy>/drover/<cluster>/<node>/job_<job>/step_<step>, where <hierarchy> is each
// v1 controller's mount (<mount>/freezer, <mount>/memory, ...) or, in v2, the mount itself, and
// <cluster> the ClusterName ("default" without one): two clusters on one host, whose job ids and
// node names may well be the same, never share a directory. Step directories are named by
// number, or "batch" and "extern" for DROVER_STEP_BATCH and DROVER_STEP_EXTERN. Nothing is kept in
// memory per step: the directories are the state, so a restarted daemon finds its steps where it
// left them.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <drover/proctrack.h>

#include "device_filter.hpp"
#include "settings.hpp"

namespace drover::cgroup {

// A failure with the DROVER_* code the op returns; what() is one line naming the path.
class Error : public std::runtime_error {
  public:
    Error(int code, const std::string &msg) : std::runtime_error(msg), code_(code) {}
    int code() const { return code_; }

  private:
    int code_;
};

struct Step {
    uint32_t job = 0;
    uint32_t step = 0;
};

// Container ids carry the step: job in the high 32 bits, step in the low.
inline drover_cont_id cont_of(Step s) {
    return (drover_cont_id{s.job} << 32) | s.step;
}
inline Step step_of(drover_cont_id c) {
    return Step{static_cast<uint32_t>(c >> 32), static_cast<uint32_t>(c & 0xffffffffu)};
}
// "job_7/step_batch", "job_7/step_0".
std::string step_path(Step s);
// "job 7 step batch", for messages.
std::string step_label(Step s);

class Tree {
  public:
    virtual ~Tree() = default;

    // Creates drover/<cluster>/<node> in every hierarchy, checks each is writable, and removes
    // empty step and job directories a previous daemon left. Throws Error naming the path.
    void prepare();
    // "cgroup v1 (freezer memory cpuset cpuacct) under /sys/fs/cgroup" for the log.
    virtual std::string describe() const = 0;

    // Makes the step's directories and moves pid into each.
    void create(Step s, int32_t pid);
    // The pids in the step (v1: from freezer, else pids; v2: the step's cgroup.procs).
    std::vector<int32_t> pids(Step s) const;
    // Freezes the step, sends sig to each process, thaws it. Throws Error(DROVER_ENOENT) when
    // no process is left.
    void signal(Step s, int sig);
    // Removes the step's directories (waiting briefly for exiting processes) and the job's when
    // no other step is left in it. A step that is already gone is not an error.
    void destroy(Step s);
    virtual void limit(Step s, const drover_cont_limits &limits) = 0;
    virtual void usage(Step s, drover_cont_usage &usage) const = 0;

    struct Hierarchy {
        std::string controller; // "freezer", "memory", ... or "" for the v2 tree
        std::string root;       // the mount directory
    };

  protected:
    Tree(const Settings &settings, std::vector<Hierarchy> hierarchies, size_t procs_index);

    std::string node_dir(const Hierarchy &h) const;
    std::string step_dir(const Hierarchy &h, Step s) const;
    const Hierarchy *find(const std::string &controller) const;

    // Prepares a newly made (or found) directory below h.root before processes join it.
    virtual void init_dir(const Hierarchy &h, const std::string &dir) = 0;
    // Freezes (true) or thaws the step; false when it did not settle in time.
    virtual bool freeze(Step s, bool frozen) = 0;
    // Kills every process at once when the kernel can (v2 cgroup.kill); false otherwise.
    virtual bool kill_all(Step s) { return false; }
    // Writes a limit; throws Error naming the file (DROVER_EINVAL when the kernel refuses the
    // value itself).
    static void set(Step s, const std::string &file, const std::string &value);
    // Throws Error(DROVER_ENOENT) when the step has no directory.
    void require(Step s) const;
    // The devices the step may not open: none unless ConstrainDevices is set and limits (ABI 1.6)
    // name some. Throws Error(DROVER_EINVAL) naming a path that is not a device.
    std::vector<Device> devices_to_deny(Step s, const drover_cont_limits &limits) const;

    Settings settings_;
    std::vector<Hierarchy> hier_;
    size_t procs_ = 0; // the hierarchy pids are listed from

  private:
    void make_dir(const Hierarchy &h, const std::string &dir, Step s);
    void make_node_dir(const Hierarchy &h);
    void sweep(const Hierarchy &h);
};

// Finds the hierarchies CgroupPlugin and CgroupMountpoint name, checks the controllers the
// settings need are there, and prepares them. Throws Error with one line naming the path.
std::unique_ptr<Tree> open_tree(const Settings &settings);

// The version-specific trees (tree_v1.cpp, tree_v2.cpp).
std::unique_ptr<Tree> make_tree_v1(const Settings &settings,
                                   const std::vector<std::pair<std::string, std::string>> &dirs);
std::unique_ptr<Tree> make_tree_v2(const Settings &settings);

} // namespace drover::cgroup
