// metrics.hpp - the controller's OpenMetrics endpoints (MetricsType=metrics/openmetrics), served
// over HTTP GET on SlurmctldPort as Slurm's are: /metrics lists them; /metrics/jobs (jobs by
// state, CPUs held, the counts sdiag shows), /metrics/jobs-users-accts (jobs and CPUs of each
// user and account), /metrics/nodes (nodes by state, each node's CPUs and
// memory), /metrics/partitions (nodes, CPUs and jobs of each partition), /metrics/scheduler (the
// main and backfill passes, the accounting backlog), and Drover's own /metrics/controller (the
// state store: its size, commits and how long they take; each standby controller and how far it
// is behind).
#pragma once

#include <string>

#include "net/http_get.hpp"

namespace drover {
struct Config;
}

namespace drover::ctld {

struct Ctx;
class JobManager;
class NodeManager;
class ReplSource;

// Whether slurm.conf turns the endpoints on: MetricsType=metrics/openmetrics and, as in Slurm,
// no PrivateData unless MetricsParameters=ignore_private_data (anyone who reaches the port may
// read them: no credential comes with an HTTP GET).
bool metrics_enabled(const Config &conf);

class Metrics {
  public:
    Metrics(Ctx &ctx, NodeManager &nodes, JobManager &jobs, const ReplSource &repl)
        : ctx_(ctx), nodes_(nodes), jobs_(jobs), repl_(repl) {}
    // The answer to a GET of path: an endpoint's text, or 404 with the list of endpoints.
    net::HttpReply http(const std::string &path);

  private:
    std::string jobs_text();
    std::string users_accts_text();
    std::string nodes_text();
    std::string partitions_text();
    std::string scheduler_text();
    std::string controller_text();

    Ctx &ctx_;
    NodeManager &nodes_;
    JobManager &jobs_;
    const ReplSource &repl_;
};

} // namespace drover::ctld
