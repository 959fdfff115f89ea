// step_runner_impl.hpp - the step runner's inside, shared by the files that hold its parts:
// step_launch.cpp (a step's start), step_stream.cpp (its I/O with srun), step_end.cpp (its
// records, usage and end), step_kill.cpp (its termination) and step_runner.cpp (the rest).
// Everything here runs on the loop's thread.
#pragma once

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>

#include <array>
#include <deque>
#include <map>
#include <set>

#include "common/pmi_server.hpp"
#include "common/status.hpp"
#include "common/step_io.hpp"
#include "noded/container.hpp"
#include "noded/privileges.hpp"
#include "noded/sampler.hpp"
#include "noded/shepherd.hpp"
#include "noded/step_runner.hpp"
#include "net/step_cred.hpp"

namespace drover::noded {

namespace asio = boost::asio;
using asio::ip::tcp;

// What a launch request asks of this node, once its credential has been checked.
struct LaunchPlan {
    net::StepCredCopy cred_copy;
    const proto::StepCred *cred = nullptr; // into cred_copy
    uint32_t node_index = 0;               // this node's place in the step
    std::vector<uint32_t> tasks;           // this node's share of the step's tasks (global ids)
};

// srun --mpi=pmi2: the step's PMI server here and each local task's channel to it.
struct StepPmi {
    struct Channel {
        std::unique_ptr<asio::local::stream_protocol::socket> sock;
        std::array<char, 4096> buf{};
        std::deque<std::string> outq; // replies not yet written
        bool writing = false;
    };
    std::unique_ptr<pmi::Server> server;
    std::map<uint32_t, Channel> channels; // by rank
};

// srun --mpi=pmix: the step's drover-pmix helper here (noded/pmix/) and the socket to it.
struct StepPmix {
    int32_t pid = 0;
    std::string dir; // its directory (the PMIx server's), removed once it has exited
    std::unique_ptr<asio::local::stream_protocol::socket> sock;
    std::array<char, 16384> buf{};
    std::string in;
    std::deque<std::string> outq;
    bool writing = false;
};

// A connection the step's output goes to: srun's, and each sattach's. Frames queue in outq and
// are written in order; what the other end sends (input, signals) is framed from in.
struct StepRunner::IoLink {
    std::unique_ptr<tcp::socket> sock;
    std::array<uint8_t, 4096> buf{};
    std::string in;
    std::deque<std::string> outq;
    std::size_t queued = 0; // bytes in outq
    bool writing = false, closed = false;
    bool srun = true; // srun's: losing it ends the step, and PMI frames go only there
};

// One step on this node, from its launch to its end report.
struct StepRunner::Step : std::enable_shared_from_this<StepRunner::Step> {
    struct Output {
        std::unique_ptr<asio::posix::stream_descriptor> fd;
        uint32_t task = 0;
        stepio::Type type = stepio::Stdout;
        std::array<char, 16384> buf{};
    };

    uint32_t job_id = 0, step_id = 0, uid = 0, gid = 0;
    std::string user, label;
    std::string spool;            // its directory in the node's spool
    std::size_t records_seen = 0; // of the spool's records, for a step found again
    std::vector<uint32_t> tasks;
    drover_cont_id cont = 0;
    bool contained = false;
    int32_t shepherd = 0;
    std::map<uint32_t, int32_t> task_pids;
    std::map<uint32_t, int> task_status;
    std::size_t failed_tasks = 0;
    std::unique_ptr<asio::posix::stream_descriptor> status;
    std::array<char, sizeof(ShepherdRecord) * 64> status_buf{};
    std::string status_acc;
    std::vector<std::unique_ptr<Output>> outputs;
    int open_outputs = 0;
    std::map<uint32_t, std::unique_ptr<asio::posix::stream_descriptor>> stdin_pipes;
    std::deque<std::pair<uint32_t, std::string>> stdin_queue; // (task, data); empty data = close
    bool stdin_writing = false;
    uint32_t num_tasks = 0;                        // in the whole step
    std::shared_ptr<IoLink> srun;                  // null: none (a step found after a restart)
    std::vector<std::shared_ptr<IoLink>> attached; // sattach's
    // The last output frames (at most kRecentOutput, kRecentBytes in all), for sattach.
    std::deque<std::string> recent_output;
    std::size_t recent_bytes = 0;
    static constexpr std::size_t kRecentOutput = 128, kRecentBytes = 256 << 10;
    // An sattach that reads no more is dropped past kMaxAttachedQueue bytes queued; a step takes
    // at most kMaxAttached of them; once the step is over they get kAttachedLingerMs to read
    // the rest.
    static constexpr std::size_t kMaxAttachedQueue = 4 << 20, kMaxAttached = 16;
    static constexpr int kAttachedLingerMs = 30000;
    std::unique_ptr<asio::steady_timer> linger_timer;
    bool done_queued = false; // NodeDone is queued: the links may close once it is sent
    bool shepherd_done = false, status_done = false, finished = false;
    bool terminating = false;
    uint32_t end_state = 0;
    std::unique_ptr<asio::steady_timer> kill_timer;
    std::unique_ptr<StepSampler> sampler;
    std::unique_ptr<asio::steady_timer> sample_timer;
    std::unique_ptr<StepPmi> pmi;   // srun --mpi=pmi2 only
    std::unique_ptr<StepPmix> pmix; // srun --mpi=pmix only
};

struct StepRunner::Impl : std::enable_shared_from_this<StepRunner::Impl> {
    using StepPtr = std::shared_ptr<Step>;

    Impl(asio::io_context &i, const Config &c, std::string n, plugin::PluginSet &p,
         const net::Authenticator &a, Reaper &r, std::function<bool(uint32_t)> adm, Report rp,
         Tell t)
        : io(i), conf(c), node(std::move(n)), plugins(p), containers(p.proctrack()), auth(a),
          reaper(r), is_admin(std::move(adm)), report(std::move(rp)), tell(std::move(t)) {}

    asio::io_context &io;
    const Config &conf;
    std::string node;
    plugin::PluginSet &plugins;
    Containers containers;
    const net::Authenticator &auth;
    Reaper &reaper;
    std::function<bool(uint32_t)> is_admin;
    Report report;
    Tell tell;
    std::map<std::pair<uint32_t, uint32_t>, StepPtr> steps;
    std::set<std::pair<uint32_t, uint32_t>> launched; // never launched twice (replay)
    std::set<uint32_t> jobs_here;                     // jobs whose Prolog ran here
    std::vector<std::string> gpu_files;     // this node's by GPU index (ConstrainDevices only)
    std::vector<std::string> gpu_cores;     // each GPU's Cores= (gres.conf), by GPU index
    std::vector<CpuPlace> topology;         // this node's CPUs, for task binding
    std::map<uint32_t, int64_t> ended_jobs; // job -> when it ended (no late launches)
    std::function<void(const std::string &)> unkillable;
    GroupCache groups;

    // step_runner.cpp: the step requester asks about (its owner or an admin); null, with *why
    // set, when there is none running here (DROVER_ENOENT) or it is another user's
    // (DROVER_EPERM).
    StepPtr owned_step(uint32_t job_id, uint32_t step_id, uint32_t requester, Status *why);

    // step_launch.cpp: the request's credential checked (DROVER_EPERM when refused), and this
    // node's share of the step (DROVER_EINVAL when the request cannot be run).
    Status plan_launch(const proto::StepLaunchRequest &req, uint32_t requester, LaunchPlan &plan);
    // The supervisor's orders for a step: who, what, where, with which environment.
    ShepherdSpec step_spec(const Step &s, const proto::StepLaunchRequest &req,
                           const LaunchPlan &plan);
    // A started step watched (its status pipe, outputs, shepherd's end).
    void watch(const StepPtr &s, int status_fd);

    // step_stream.cpp: frames to srun and sattach, queued and written in order.
    using LinkPtr = std::shared_ptr<IoLink>;
    // To srun only (PMI frames); to_all: srun and every sattach (output, task ends, messages).
    void send(const StepPtr &s, std::string bytes);
    void to_all(const StepPtr &s, std::string bytes);
    // An sattach's link to host:port: the step's recent output and ended tasks first, then what
    // follows. False when the step has kMaxAttached links already.
    bool attach_link(const StepPtr &s, const std::string &host, uint16_t port, std::string key);
    // Forgets the sattach links that are closed and idle.
    void drop_closed_links(const StepPtr &s);
    void queue(const StepPtr &s, const LinkPtr &l, std::string bytes);
    void flush(const StepPtr &s, const LinkPtr &l);
    void maybe_close_io(const StepPtr &s);
    // A link went away: srun's before the step ended takes the step with it, as Slurm ends a
    // step whose srun is gone; an sattach's is only dropped.
    void io_lost(const StepPtr &s, const LinkPtr &l, const std::string &why);
    // A task's output, framed for srun.
    void read_output(const StepPtr &s, Step::Output *o);
    // A line srun prints as the step's own ("slurmstepd: error: ...").
    void message(const StepPtr &s, const std::string &line);
    // A link to host:port (srun's, or an sattach's), opened with its key.
    void connect_link(const StepPtr &s, const LinkPtr &l, const std::string &host, uint16_t port,
                      std::string key_bytes);
    // Input from a link: frames for tasks' stdin and signals.
    void read_io(const StepPtr &s, const LinkPtr &l);
    void on_input(const StepPtr &s, const LinkPtr &l, const stepio::Header &h, std::string data);
    void write_stdin(const StepPtr &s);

    // step_end.cpp: the shepherd's records, the usage samples and the step's end.
    void read_status(const StepPtr &s);
    void on_record(const StepPtr &s, const ShepherdRecord &r);
    // Sampling starts once every task's first process is known.
    void start_sampler(const StepPtr &s);
    std::vector<int32_t> pids_of(const Step &s) const;
    void sample(const StepPtr &s);
    void arm_sampling(const StepPtr &s);
    // The step ends once its shepherd, status pipe and outputs are all done.
    void maybe_finish(const StepPtr &s);
    StepEnd end_of(const StepPtr &s);
    // A step found again after a restart: the shepherd's records since the last look.
    void read_spooled_records(const StepPtr &s);

    // step_pmi.cpp: srun --mpi=pmi2. A channel for each task (its end in the task as PMI_FD,
    // with PMI_RANK, PMI_SIZE and PMI_JOBID), the step's server, its fences through srun.
    // Fails (DROVER_EIO) when a channel cannot be made.
    Status wire_pmi(const StepPtr &s, const proto::StepLaunchRequest &req, ShepherdSpec &spec,
                    std::vector<int> &close_after);
    // The tasks run: PMI requests and the PMIx helper's frames are read from here on.
    void serve_mpi(const StepPtr &s);
    void read_pmi(const StepPtr &s, uint32_t rank);
    void write_pmi(const StepPtr &s, uint32_t rank);
    void pmi_fence_done(const StepPtr &s, const std::string &all);
    // step_pmix.cpp: srun --mpi=pmix. The step's drover-pmix helper started as the user before
    // the tasks (their PMIx variables come from it), its fences and aborts relayed to srun.
    // Fails (DROVER_EIO) when the helper is missing, cannot start or does not get its server up.
    Status wire_pmix(const StepPtr &s, const proto::StepLaunchRequest &req, const LaunchPlan &plan,
                     ShepherdSpec &spec);
    void read_pmix(const StepPtr &s);
    void write_pmix(const StepPtr &s, std::string bytes);
    void flush_pmix(const StepPtr &s);
    // The step is over here: its PMI channels and PMIx helper go.
    void end_mpi(const StepPtr &s);

    // step_kill.cpp: SIGCONT+SIGTERM, SIGKILL after KillWait, the node drained when processes
    // outlive that; the step ends as state.
    void terminate(const StepPtr &s, uint32_t state);
    void signal(const StepPtr &s, int sig);
};

} // namespace drover::noded
