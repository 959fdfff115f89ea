// launcher.hpp - the batch step: runs batch scripts on this node as their users through the step
// supervisor (supervisor.hpp, the same exec path, privilege drop and container as every step),
// and reports how each ended.
//
// Each job lives in the node's spool (spool.hpp) from its launch until the controller has
// acknowledged its end, so a droverd killed and restarted finds its scripts again (recover()),
// reports each end once it happens, and never starts a job's run twice.
#pragma once

#include <sys/resource.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "common/status.hpp"
#include "noded/reaper.hpp"
#include "noded/spool.hpp"
#include "plugin/plugin_set.hpp"
#include "proto/message_generated.h"

namespace boost::asio {
class io_context;
}

namespace drover {
struct Config;
}

namespace drover::noded {

struct RunningJob {
    uint32_t job_id = 0;
    uint32_t restart = 0; // the controller's restart count: which run of the job this is
    int32_t pid = 0;      // the script's keeper (its parent, the container's first process)
    drover_cont_id cont = 0;
    uint32_t uid = 0, gid = 0;
    std::string spool_dir;
    std::string user_name;
    std::string node_list;
    std::string in_path, out_path, err_path; // the script's standard streams
    bool terminating = false;
};

// How a batch script ended, for the controller.
struct BatchEnd {
    int status = 0;           // raw wait status
    struct rusage ru {};      // the script's
    drover_cont_usage cont{}; // its container's (the whole batch step)
    uint32_t state = 0;       // drover_job_state decided here (OOM); 0 none
    std::string failure;      // why the script never ran (an output file it could not open)
};

class Launcher {
  public:
    // ended(job, how it ended) is called on the loop once a job's script has exited, and
    // returns the end report for the controller; the report is kept in the spool and sent (with
    // tell) until the controller acknowledges it.
    using Ended = std::function<std::vector<uint8_t>(const RunningJob &job, const BatchEnd &end)>;

    Launcher(boost::asio::io_context &io, const Config &conf, const std::string &node_name,
             plugin::PluginSet &plugins, Reaper &reaper, Ended ended, Tell tell);
    ~Launcher();

    // This node's GPU device files by GPU index, given only under ConstrainDevices: a batch
    // script cannot open those of GPUs its job does not hold here.
    void set_gpu_files(std::vector<std::string> files);

    // Starts a batch script. Success, or why it could not start (DROVER_EIO: its spool, the
    // switch plugin or its supervisor failed). A launch of a run that is already here (running,
    // or ended and not yet acknowledged, or ended a short while ago) starts nothing and is
    // answered as a success: the controller repeats launches it cannot be sure arrived.
    Status launch(const proto::BatchLaunchRequest &req);
    // Takes back the jobs a previous droverd left in the spool: scripts still running are
    // watched again, scripts that ended meanwhile are ended now, unacknowledged reports resent.
    void recover();
    // Signals a job's processes; terminate = SIGCONT+SIGTERM now and SIGKILL after KillWait,
    // with the line for its cause appended to the script's stderr (batch_banner.hpp). Returns
    // false when the job is not running here.
    bool signal(uint32_t job_id, int sig, bool terminate,
                proto::KillCause cause = proto::KillCause::None);
    // Signals the job's batch script alone, not its children, for requester (its owner, or an
    // admin): ENOENT when no script of the job runs here, EPERM for another user.
    Status signal_shell(uint32_t job_id, int sig, uint32_t requester, bool admin);
    // scontrol listpids: the batch jobs here that requester may see (its own; admin: all), each
    // with its script's pid (0 once it has ended) and every process of its batch step.
    struct BatchPids {
        uint32_t job_id = 0;
        int32_t script = 0;
        std::vector<int32_t> pids;
    };
    std::vector<BatchPids> batch_pids(uint32_t job_id, uint32_t requester, bool admin) const;
    // Jobs here: running, or ended with their report not yet acknowledged.
    std::vector<uint32_t> running() const;

    // Whether the job's batch script runs here.
    bool has(uint32_t job_id) const;

  private:
    void script_ended(uint32_t job_id, int keeper_status);
    BatchEnd end_of(const RunningJob &job, int keeper_status);
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drover::noded
