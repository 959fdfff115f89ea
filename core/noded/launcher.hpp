// launcher.hpp - runs batch scripts on this node as their users, tracks every process they
// start through the proctrack plugin, and reports how each ended.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "noded/reaper.hpp"
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
    int32_t pid = 0;
    drover_cont_id cont = 0;
    uint32_t uid = 0, gid = 0;
    std::string spool_dir;
    std::string user_name;
    std::string node_list;
    bool terminating = false;
};

class Launcher {
  public:
    // ended(job, raw wait status, the script's rusage, its container's usage) is called on the
    // loop once a job's script has exited and its leftover processes were killed.
    using Ended = std::function<void(const RunningJob &job, int status, const struct rusage &ru,
                                     const drover_cont_usage &cont)>;

    Launcher(boost::asio::io_context &io, const Config &conf, const std::string &node_name,
             plugin::PluginSet &plugins, Reaper &reaper, Ended ended);
    ~Launcher();

    // Starts a batch script. Returns an empty string, or why it could not start.
    std::string launch(const proto::BatchLaunchRequest &req);
    // Signals a job's processes; terminate = SIGCONT+SIGTERM now and SIGKILL after KillWait.
    // Returns false when the job is not running here.
    bool signal(uint32_t job_id, int sig, bool terminate);
    std::vector<uint32_t> running() const;

    // Whether the job's batch script runs here.
    bool has(uint32_t job_id) const;

  private:
    void script_ended(uint32_t job_id, int status, const struct rusage &ru);
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace drover::noded
