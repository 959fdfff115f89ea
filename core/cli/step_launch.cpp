// step_launch.cpp - srun's step: create it, launch its tasks on its nodes with the credential
// (one request down the fan-out tree), then serve its I/O (output out, input and signals in) until
// every node says it is done.
#include "cli/step_launch.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>

#include <drover/views.h>

#include "cli/alloc.hpp"
#include "cli/bcast_send.hpp"
#include "cli/rpc.hpp"
#include "cli/sbcast_args.hpp"
#include "cli/step_io_port.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/gres.hpp"
#include "common/hostlist.hpp"
#include "common/multi_prog.hpp"
#include "common/rlimits.hpp"
#include "common/step_io.hpp"
#include "common/timefmt.hpp"
#include "net/fanout.hpp"
#include "proto/key_values.hpp"

namespace drover::cli {

namespace {

int g_sig_pipe[2] = {-1, -1};
void on_signal(int sig) {
    int saved = errno;
    unsigned char c = static_cast<unsigned char>(sig);
    (void)!::write(g_sig_pipe[1], &c, 1);
    errno = saved;
}

// How long the launch may take down the tree (a node that does not answer within it is reported
// as failed): each level of the tree gives the level below a little less. 30 s, and 40 ms more
// for each node past the first hundred: a node daemon starts each step with a fork, and the
// nodes one daemon emulates take their turns.
int launch_timeout_ms(std::size_t nodes) {
    std::size_t extra = nodes > 100 ? std::min<std::size_t>(nodes - 100, 100000) * 40 : 0;
    return 30000 + int(extra);
}

// How Slurm words a task's end in "srun: error: NODE: task N: ...".
std::string describe_end(int status) {
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        if (sig == SIGKILL) return "Killed";
        const char *d = ::strsignal(sig);
        return d ? d : "Signal " + std::to_string(sig);
    }
    return "Exited with exit code " + std::to_string(WEXITSTATUS(status));
}

// A part the fan-out re-sent after its head did not accept it in time can reach nodes that head
// had already forwarded it to: they refuse the credential's second use in these words
// (core/noded/step_runner.cpp) while the tasks it launched run, so for srun that is a launch.
constexpr std::string_view kAlreadyLaunched = "step already launched here";

bool launched_before(const net::NodeOutcome &r) {
    return r.message.find(kAlreadyLaunched) != std::string::npos;
}

// Where exec finds name: as given when it holds a '/', else the first executable in PATH.
std::string program_path(const std::string &name) {
    if (name.find('/') != std::string::npos) return name;
    const char *path = ::getenv("PATH");
    for (const auto &dir : split(path ? path : "/usr/bin:/bin", ':', true)) {
        std::string p = (dir.empty() ? "." : dir) + "/" + name;
        if (::access(p.c_str(), X_OK) == 0) return p;
    }
    return name;
}

// -m arbitrary: the hosts in task order, from the file SLURM_HOSTFILE names (one per line, or
// comma-separated), else -w's list.
std::string arbitrary_hosts(const std::string &node_list) {
    const char *file = ::getenv("SLURM_HOSTFILE");
    if (!file) return node_list;
    std::ifstream f(file);
    if (!f) throw ParseError(std::string("cannot read SLURM_HOSTFILE ") + file);
    std::string all, word;
    while (f >> word) all += (all.empty() ? "" : ",") + word;
    return all;
}

// Task ids as srun -v lists them: "0", "[0-3]", "[0,2,4]".
std::string task_id_ranges(const std::vector<uint32_t> &ids) {
    std::string list = format_index_list(ids);
    return ids.size() > 1 ? "[" + list + "]" : list;
}

class StepSession {
  public:
    StepSession(const SrunRequest &r, std::string prog) : r_(r), prog_(std::move(prog)) {}

    int run(uint32_t job_id);

  private:
    enum class Interrupt { forward, handled, abort };

    bool create(uint32_t job_id);
    bool launch();
    bool broadcast_program(const std::string &work);
    bool open_io_port();
    bool read_multi_prog(std::string *multi) const;
    std::vector<std::pair<std::string, std::string>>
    task_environment(const std::string &work) const;
    void build_launch(flatbuffers::FlatBufferBuilder &fbb, const std::string &work,
                      const std::string &multi) const;
    std::vector<net::NodeOutcome> send_launch(std::span<const uint8_t> msg) const;
    int serve();
    void route_stdin();
    void deliver_stdin();
    std::vector<pollfd> poll_set() const;
    int poll_timeout() const;
    bool take_signals();
    Interrupt on_interrupt();
    void forward_signal(int sig);
    void read_stdin();
    void serve_conn(IoConn &c, short revents);
    int step_exit_code() const;
    void on_frame(IoConn &c, const stepio::Header &h, std::string_view data);
    void on_pmi_fence(IoConn &c, std::string_view keys);
    void on_pmi_abort(IoConn &c, const stepio::Header &h, std::string_view data);
    void cancel_step();
    void say(const std::string &line) const {
        if (!r_.quiet) write_err(prog_ + ": " + line + "\n");
    }

    const SrunRequest &r_;
    std::string prog_;
    net::Reply create_reply_;
    const proto::StepCreateResponse *step_ = nullptr;
    std::string label_;
    StepIoPort io_;
    TaskOutput out_{r_.label};
    std::vector<std::string> nodes_;
    std::map<uint32_t, std::string> task_node_;
    std::map<uint32_t, int> task_status_;
    std::set<std::string> nodes_done_; // nodes whose part is over (or never started)
    uint32_t end_state_ = 0;
    uint32_t oom_kills_ = 0;
    bool cancelled_ = false;
    // serve()'s stdin: where it goes, and what was read before that node connected.
    bool stdin_open_ = true;
    uint32_t stdin_task_ = 0;
    std::string stdin_node_;
    std::string pending_stdin_;
    bool stdin_eof_ = false;
    std::chrono::steady_clock::time_point last_int_{}; // the last Ctrl-C, and how many in a row
    int ints_ = 0;
    std::optional<std::chrono::steady_clock::time_point> wait_deadline_; // --wait
    std::string mpi_;                                                    // --mpi, else MpiDefault
    std::map<std::string, std::string> fence_keys_; // this PMI fence's keys, by node
    bool aborted_ = false;                          // a PMI abort cancelled the step
    bool named_unfinalized_ = false;                // srun said which rank ended unfinalized
    std::string bcast_dest_;                        // --bcast: where the program's copies are
};

bool StepSession::create(uint32_t job_id) {
    std::string name = r_.job_name;
    if (name.empty() && !r_.argv.empty())
        name = r_.argv[0].substr(
            r_.argv[0].rfind('/') == std::string::npos ? 0 : r_.argv[0].rfind('/') + 1);
    std::string command;
    for (const auto &a : r_.argv) command += (command.empty() ? "" : " ") + a;
    bool waited = false;
    bool arbitrary = r_.distribution == "arbitrary";
    std::string hosts = arbitrary ? arbitrary_hosts(r_.req_nodes) : r_.req_nodes;
    for (;;) {
        flatbuffers::FlatBufferBuilder fbb(512);
        auto n = fbb.CreateString(name);
        auto nl = hosts.empty() ? 0 : fbb.CreateString(hosts);
        auto xl = r_.exc_nodes.empty() ? 0 : fbb.CreateString(r_.exc_nodes);
        auto gres = r_.gres.empty() ? 0 : fbb.CreateString(r_.gres);
        auto host = fbb.CreateString(short_host());
        auto cmd = fbb.CreateString(command);
        auto sig = r_.signal.empty() ? 0 : fbb.CreateString(r_.signal);
        proto::StepCreateRequestBuilder b(fbb);
        b.add_job_id(job_id);
        b.add_name(n);
        b.add_num_tasks(r_.num_tasks);
        b.add_min_nodes(r_.min_nodes);
        b.add_max_nodes(r_.max_nodes);
        b.add_cpus_per_task(r_.cpus_per_task ? r_.cpus_per_task : 1);
        b.add_mem_per_node_mb(r_.mem_per_node_mb);
        b.add_mem_per_cpu_mb(r_.mem_per_cpu_mb);
        b.add_exact(r_.exact || r_.exclusive);
        b.add_overlap(r_.overlap);
        b.add_overcommit(r_.overcommit);
        b.add_exclusive(r_.exclusive);
        if (nl.o) b.add_node_list(nl);
        if (xl.o) b.add_exc_nodes(xl);
        b.add_time_limit_min(r_.time_limit_min);
        b.add_cyclic(r_.distribution == "cyclic");
        b.add_plane_size(r_.plane_size);
        b.add_arbitrary(arbitrary);
        if (gres.o) b.add_gres(gres);
        b.add_wait(waited);
        b.add_submit_host(host);
        b.add_command(cmd);
        b.add_ntasks_per_node(r_.ntasks_per_node);
        if (sig.o) b.add_signal(sig);
        b.add_gpus(r_.gpus);
        b.add_gpus_per_node(r_.gpus_per_node);
        b.add_gpus_per_task(r_.gpus_per_task);
        try {
            create_reply_ = call_ctld(fbb, proto::Body::StepCreateRequest, b.Finish().Union(),
                                      waited ? 7 * 24 * 3600 * 1000 : 30000);
            step_ = create_reply_.as<proto::StepCreateResponse>();
            break;
        } catch (const net::RpcError &e) {
            if (e.code() == DROVER_EBUSY && !waited &&
                std::string(e.what()) != "Job is pending execution") {
                say("Job " + std::to_string(job_id) +
                    " step creation temporarily disabled, retrying (" + e.what() + ")");
                waited = true;
                continue;
            }
            print_error(prog_, "Unable to create step for job " + std::to_string(job_id) + ": " +
                                   e.what());
            return false;
        }
    }
    label_ = std::to_string(step_->job_id()) + "." + std::to_string(step_->step_id());
    if (waited) say("Step created for StepId=" + label_);
    const auto *tasks = step_->tasks();
    std::size_t at = 0;
    for (uint32_t i = 0; i < step_->nodes()->size(); ++i) {
        nodes_.push_back(step_->nodes()->Get(i)->str());
        std::vector<uint32_t> ids;
        for (uint32_t k = 0; k < step_->tasks_per_node()->Get(i); ++k, ++at) {
            ids.push_back(tasks->Get(uint32_t(at)));
            task_node_[ids.back()] = nodes_.back();
        }
        // srun -v: Slurm's line per node, which scripts read the step id from.
        if (r_.verbose)
            say("launching StepId=" + label_ + " on host " + nodes_.back() + ", " +
                std::to_string(ids.size()) + " tasks: " + task_id_ranges(ids));
    }
    return true;
}

bool StepSession::open_io_port() {
    std::string why;
    if (io_.open(step_->node_addrs()->Get(0)->str(), &why)) return true;
    print_error(prog_, why);
    return false;
}

bool StepSession::read_multi_prog(std::string *multi) const {
    if (!r_.mpmd.empty()) {
        *multi = r_.mpmd; // srun A : B wrote its own
    } else {
        std::ifstream f(r_.argv.empty() ? "" : r_.argv[0]);
        std::stringstream ss;
        ss << f.rdbuf();
        *multi = ss.str();
        if (!f) {
            print_error(prog_,
                        "cannot read --multi-prog file " + (r_.argv.empty() ? "" : r_.argv[0]));
            return false;
        }
    }
    try {
        parse_multi_prog(*multi, uint32_t(task_node_.size()));
    } catch (const std::exception &e) {
        print_error(prog_, e.what());
        return false;
    }
    return true;
}

std::vector<std::pair<std::string, std::string>>
StepSession::task_environment(const std::string &work) const {
    std::vector<std::pair<std::string, std::string>> env;
    bool all = r_.export_spec == "ALL" || r_.export_spec.rfind("ALL,", 0) == 0;
    auto names = split(r_.export_spec, ',');
    for (const auto &[k, v] : process_env()) {
        bool keep = all || k.rfind("SLURM_", 0) == 0;
        for (const auto &n : names) keep = keep || n == k;
        if (keep) env.emplace_back(k, v);
    }
    for (const auto &n : names)
        if (auto eq = n.find('='); eq != std::string::npos)
            env.emplace_back(n.substr(0, eq), n.substr(eq + 1));
    env.emplace_back("SLURM_MPI_TYPE", mpi_);
    // Only when -c (or SRUN_CPUS_PER_TASK) was given: otherwise the tasks keep the job's.
    if (r_.cpus_per_task) env.emplace_back("SLURM_CPUS_PER_TASK", std::to_string(r_.cpus_per_task));
    if (!r_.distribution_text.empty()) {
        std::string d = r_.distribution_text;
        if (r_.plane_size) d = "plane" + d.substr(std::min(d.find(':'), d.size()));
        env.emplace_back("SLURM_DISTRIBUTION", d);
    }
    if (r_.plane_size) env.emplace_back("SLURM_DIST_PLANESIZE", std::to_string(r_.plane_size));
    if (!r_.mem_bind.empty()) env.emplace_back("SLURM_MEM_BIND", r_.mem_bind);
    env.emplace_back("SLURM_SUBMIT_DIR", work);
    env.emplace_back("SLURM_SUBMIT_HOST", short_host());
    // The cluster the step runs on, when no allocation's environment names it (srun's own).
    if (std::none_of(env.begin(), env.end(),
                     [](const auto &kv) { return kv.first == "SLURM_CLUSTER_NAME"; }))
        env.emplace_back("SLURM_CLUSTER_NAME", target_config().cluster_name);
    // --task-prolog / --task-epilog: each task's node runs them around it (as the user).
    for (const auto &[key, path] : {std::pair{"SLURM_TASK_PROLOG", &r_.task_prolog},
                                    std::pair{"SLURM_TASK_EPILOG", &r_.task_epilog}}) {
        std::erase_if(env, [key = key](const auto &kv) { return kv.first == key; });
        if (!path->empty()) env.emplace_back(key, *path); // relative: to the working dir
    }
    // srun's own resource limits and umask, over those its allocation's environment brought.
    put_limit_variables(env, propagated_limits(r_.propagate, cli_config()));
    return env;
}

void StepSession::build_launch(flatbuffers::FlatBufferBuilder &fbb, const std::string &work,
                               const std::string &multi) const {
    auto env = task_environment(work);
    std::vector<uint32_t> tpn(step_->tasks_per_node()->begin(), step_->tasks_per_node()->end());
    auto kvs = proto::key_values(fbb, env);
    auto cred = fbb.CreateVector(step_->cred()->data(), step_->cred()->size());
    auto argv = fbb.CreateVectorOfStrings(r_.argv);
    auto wd = fbb.CreateString(work);
    auto tpns = fbb.CreateString(compress_counts(tpn));
    auto host = fbb.CreateString(io_.host());
    auto key =
        fbb.CreateVector(reinterpret_cast<const uint8_t *>(io_.key().data()), io_.key().size());
    auto out = fbb.CreateString(r_.std_out == "none" ? "/dev/null" : r_.std_out);
    auto err = fbb.CreateString(r_.std_err == "none" ? "/dev/null" : r_.std_err);
    auto in = fbb.CreateString(r_.std_in);
    auto mp = fbb.CreateString(multi);
    auto bind = fbb.CreateString(r_.cpu_bind);
    // --gpus-per-task alone binds each task to its own GPUs, as Slurm does.
    std::string gpu_bind = r_.gpu_bind;
    if (gpu_bind.empty() && r_.gpus_per_task)
        gpu_bind = "per_task:" + std::to_string(r_.gpus_per_task);
    auto gbind = gpu_bind.empty() ? 0 : fbb.CreateString(gpu_bind);
    auto ids = fbb.CreateVector(step_->tasks()->data(), step_->tasks()->size());
    auto mpi = fbb.CreateString(mpi_);
    auto sdist = fbb.CreateString(r_.socket_distribution);
    auto counts = fbb.CreateVector(tpn);
    auto bc = bcast_dest_.empty() ? 0 : fbb.CreateString(bcast_dest_);
    auto mb = r_.mem_bind.empty() ? 0 : fbb.CreateString(r_.mem_bind);
    proto::StepLaunchRequestBuilder b(fbb);
    b.add_cred(cred);
    b.add_argv(argv);
    b.add_environment(kvs);
    b.add_work_dir(wd);
    b.add_num_tasks(uint32_t(task_node_.size()));
    b.add_tasks_per_node(tpns);
    b.add_io_host(host);
    b.add_io_port(io_.port());
    b.add_io_key(key);
    b.add_std_out(out);
    b.add_std_err(err);
    b.add_std_in(in);
    b.add_open_append(r_.open_append);
    b.add_cpus_per_task(r_.cpus_per_task ? r_.cpus_per_task : 1);
    b.add_multi_prog(mp);
    b.add_pty(r_.pty);
    b.add_cpu_bind(bind);
    if (gbind.o) b.add_gpu_bind(gbind);
    b.add_task_ids(ids);
    b.add_node_task_counts(counts);
    b.add_mpi(mpi);
    b.add_socket_distribution(sdist);
    if (bc.o) b.add_bcast(bc);
    if (mb.o) b.add_mem_bind(mb);
    b.add_ntasks_per_core(r_.ntasks_per_core);
    // --hint as Slurm spells it out: one thread per core, and memory_bound one task per socket.
    bool one_thread =
        r_.hint == "nomultithread" || r_.hint == "compute_bound" || r_.hint == "memory_bound";
    b.add_threads_per_core(one_thread ? 1 : r_.threads_per_core);
    b.add_ntasks_per_socket(r_.hint == "memory_bound" ? 1 : r_.ntasks_per_socket);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::StepLaunchRequest, b.Finish().Union()));
}

std::vector<net::NodeOutcome> StepSession::send_launch(std::span<const uint8_t> msg) const {
    const Config &conf = cli_config();
    return net::forward_and_wait(net::address_book(step_->nodes(), step_->node_addrs()), nodes_,
                                 conf.tree_width, launch_timeout_ms(nodes_.size()), msg,
                                 net::socket_signer(conf));
}

bool StepSession::launch() {
    // The I/O port nodes connect back to, and its key.
    if (!open_io_port()) return false;
    char cwd[4096] = {};
    std::string here = ::getcwd(cwd, sizeof cwd) ? cwd : "/tmp";
    std::string work = r_.work_dir.empty()          ? here
                       : r_.work_dir.front() == '/' ? r_.work_dir
                                                    : here + "/" + r_.work_dir;
    std::string multi;
    if (r_.multi_prog && !read_multi_prog(&multi)) return false;
    if (r_.bcast && r_.multi_prog) say("--bcast is ignored with --multi-prog");
    if (r_.bcast && !r_.multi_prog && !broadcast_program(work)) {
        cancel_step();
        return false;
    }
    // One request for every node, down the fan-out tree: each node starts its own share of the
    // tasks, which it finds by its place in the credential.
    flatbuffers::FlatBufferBuilder fbb(4096 + step_->cred()->size() + 8 * task_node_.size());
    build_launch(fbb, work, multi);
    auto results = send_launch({fbb.GetBufferPointer(), fbb.GetSize()});
    std::size_t failed = 0;
    for (const auto &r : results) {
        if (r.rc == 0 || launched_before(r)) continue;
        print_error(prog_, "Task launch for StepId=" + label_ + " failed on node " + r.node + ": " +
                               r.message);
        nodes_done_.insert(r.node); // nothing to wait for there
        ++failed;
    }
    if (failed == 0) return true;
    // Nodes that did start go; the ones that did not are settled by the controller.
    cancel_step();
    return failed < nodes_.size();
}

// srun --bcast: the program (found in PATH as exec would) copied to the step's nodes, replacing
// an older copy and keeping its times; the nodes then run the copy.
bool StepSession::broadcast_program(const std::string &work) {
    BcastSend b;
    b.job_id = step_->job_id();
    b.step_id = step_->step_id();
    b.source = program_path(r_.argv[0]);
    // A file named is the copy on every node (a relative name in DestDir or the working
    // directory); none (or a directory) is a copy per node there.
    std::string dir = bcast_dest_dir(cli_config().bcast_parameters, work);
    const std::string &want = *r_.bcast;
    b.dest = want.empty() ? dir + "/" : want.front() == '/' ? want : dir + "/" + want;
    b.force = b.preserve = true;
    if (send_file(b, prog_) != 0) {
        write_err(prog_ + ": fatal: Failed to broadcast '" + b.source +
                  "'. Step launch aborted.\n");
        return false;
    }
    bcast_dest_ = b.dest;
    return true;
}

void StepSession::cancel_step() {
    if (cancelled_) return;
    cancelled_ = true;
    cancel_quietly(label_);
}

void StepSession::on_frame(IoConn &c, const stepio::Header &h, std::string_view data) {
    switch (h.type) {
    case stepio::Stdout:
        out_.write(h.task, false, data);
        break;
    case stepio::Stderr:
        out_.write(h.task, true, data);
        break;
    case stepio::Message:
        write_err(std::string(data) + "\n");
        break;
    case stepio::TaskExit: {
        int status = data.size() >= 4
                         ? int(stepio::get32(reinterpret_cast<const uint8_t *>(data.data())))
                         : 0;
        task_status_[h.task] = status;
        if (status != 0)
            print_error(prog_,
                        c.node + ": task " + std::to_string(h.task) + ": " + describe_end(status));
        if (status != 0 && r_.kill_on_bad_exit) cancel_step();
        break;
    }
    case stepio::PmiFence:
        on_pmi_fence(c, data);
        break;
    case stepio::PmiAbort:
        on_pmi_abort(c, h, data);
        break;
    case stepio::NodeDone: {
        if (data.size() >= 8) {
            uint32_t st = stepio::get32(reinterpret_cast<const uint8_t *>(data.data()));
            oom_kills_ += stepio::get32(reinterpret_cast<const uint8_t *>(data.data()) + 4);
            if (st && !end_state_) end_state_ = st;
        }
        nodes_done_.insert(c.node);
        c.done = true;
        break;
    }
    default:
        break;
    }
}

// A node's tasks all entered a PMI fence: once every node of the step has, each gets every
// node's keys (srun only concatenates them).
void StepSession::on_pmi_fence(IoConn &c, std::string_view keys) {
    fence_keys_[c.node] = std::string(keys);
    if (fence_keys_.size() < nodes_.size()) return;
    std::string all;
    for (auto &[node, k] : fence_keys_) all += k;
    fence_keys_.clear();
    io_.send_all(stepio::PmiFenceDone, 0, all);
}

// A rank asked PMI to abort, or died before finalizing: the step ends on every node (its other
// ranks would wait for it in their next fence). The rank that died is named even when another
// rank's abort (MPI noticing the lost peer) reached srun first.
void StepSession::on_pmi_abort(IoConn &c, const stepio::Header &h, std::string_view data) {
    int code =
        data.size() >= 4 ? int(stepio::get32(reinterpret_cast<const uint8_t *>(data.data()))) : 1;
    if (code < 0 && !named_unfinalized_) {
        named_unfinalized_ = true;
        print_error(prog_, c.node + ": task " + std::to_string(h.task) +
                               ": ended without MPI_Finalize; ending the step");
    }
    if (aborted_) return;
    aborted_ = true;
    say("Job step aborted: Waiting up to " + std::to_string(cli_config().kill_wait + 2) +
        " seconds for job step to finish.");
    cancel_step();
}

// --pty on a terminal: keys go to the remote terminal as typed (Ctrl-C included) until srun ends.
struct RawTerminal {
    explicit RawTerminal(bool want) {
        if (!want || !::isatty(0) || ::tcgetattr(0, &saved) != 0) return;
        termios raw = saved;
        ::cfmakeraw(&raw);
        active = ::tcsetattr(0, TCSANOW, &raw) == 0;
    }
    ~RawTerminal() {
        if (active) ::tcsetattr(0, TCSANOW, &saved);
    }
    termios saved{};
    bool active = false;
};

void StepSession::route_stdin() {
    // Where stdin goes: task 0 by default, every task with -i all, nowhere with none or a file.
    if (r_.std_in == "none" || (!r_.std_in.empty() && r_.std_in != "all" && !parse_u32(r_.std_in)))
        stdin_open_ = false;
    else if (r_.std_in == "all")
        stdin_task_ = stepio::kAllTasks;
    else if (!r_.std_in.empty())
        stdin_task_ = *parse_u32(r_.std_in);
    stdin_node_ = stdin_task_ == stepio::kAllTasks ? "" : task_node_[stdin_task_];
}

void StepSession::deliver_stdin() {
    // Input for the tasks, once the node that runs them is connected.
    for (auto &c : io_.conns()) {
        if (!c.hello || c.done) continue;
        if (!stdin_node_.empty() && c.node != stdin_node_) continue;
        if (!pending_stdin_.empty())
            stepio::frame(c.out, stepio::Stdin, stdin_task_, pending_stdin_);
        if (stdin_eof_ && stdin_open_) stepio::frame(c.out, stepio::StdinEof, stdin_task_, {});
    }
    bool delivered = false;
    for (auto &c : io_.conns())
        delivered = delivered || (c.hello && (stdin_node_.empty() || c.node == stdin_node_));
    if (delivered) {
        pending_stdin_.clear();
        if (stdin_eof_) stdin_open_ = false;
    }
}

// fds[0] the signal pipe, fds[1] the I/O port, fds[2] stdin, fds[3 + i] the i-th connection.
std::vector<pollfd> StepSession::poll_set() const {
    std::vector<pollfd> fds;
    fds.push_back({g_sig_pipe[0], POLLIN, 0});
    fds.push_back({io_.listen_fd(), POLLIN, 0});
    bool want_stdin = stdin_open_ && !stdin_eof_ && pending_stdin_.size() < (1u << 20);
    fds.push_back({want_stdin ? 0 : -1, POLLIN, 0});
    for (auto &c : io_.conns())
        fds.push_back({c.fd, short(POLLIN | (c.out.empty() ? 0 : POLLOUT)), 0});
    return fds;
}

int StepSession::poll_timeout() const {
    if (!wait_deadline_) return -1;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    *wait_deadline_ - std::chrono::steady_clock::now())
                    .count();
    return int(std::max<long>(0, left));
}

void StepSession::forward_signal(int sig) {
    uint8_t d[4];
    stepio::put32(d, uint32_t(sig));
    io_.send_all(stepio::Signal, 0, {reinterpret_cast<char *>(d), 4});
}

// Ctrl-C once reports the tasks, twice within a second kills the step, a third time ends srun.
StepSession::Interrupt StepSession::on_interrupt() {
    auto now = std::chrono::steady_clock::now();
    if (now - last_int_ > std::chrono::seconds(1)) ints_ = 0;
    last_int_ = now;
    if (++ints_ == 1) {
        say("interrupt (one more within 1 sec to abort)");
        std::size_t running = task_node_.size() - task_status_.size();
        say("StepId=" + label_ + " tasks 0-" + std::to_string(task_node_.size() - 1) + ": " +
            (running ? "running" : "exited"));
        return Interrupt::forward;
    }
    if (ints_ == 2) {
        say("sending Ctrl-C to StepId=" + label_);
        forward_signal(SIGKILL);
        cancel_step();
        return Interrupt::handled;
    }
    say("forcing job termination");
    return Interrupt::abort;
}

bool StepSession::take_signals() {
    unsigned char sig;
    while (::read(g_sig_pipe[0], &sig, 1) == 1) {
        if (sig == SIGINT) {
            Interrupt what = on_interrupt();
            if (what == Interrupt::abort) return false;
            if (what == Interrupt::handled) continue;
        }
        forward_signal(sig);
    }
    return true;
}

void StepSession::read_stdin() {
    char buf[65536];
    ssize_t got = ::read(0, buf, sizeof buf);
    if (got > 0)
        pending_stdin_.append(buf, std::size_t(got));
    else
        stdin_eof_ = true;
}

void StepSession::serve_conn(IoConn &c, short rev) {
    if (io_.serve(c, rev, [this](IoConn &ic, const stepio::Header &h, std::string_view data) {
            on_frame(ic, h, data);
        }))
        return;
    if (c.hello && !c.done) {
        nodes_done_.insert(c.node); // the node went away without saying how its tasks ended
        print_error(prog_, c.node + ": lost the connection to the step's tasks");
        // Its ranks can no longer fence with the others, who would wait for ever.
        if (mpi_ != "none") cancel_step();
    }
    c.done = true;
}

// Slurm's exit code for the step's end, else the highest of the tasks'.
int StepSession::step_exit_code() const {
    if (end_state_ == DROVER_JOB_TIMEOUT) return 152;
    int code = 0;
    for (const auto &[t, status] : task_status_) code = std::max(code, task_exit_code(status));
    if (task_status_.size() < task_node_.size() && code == 0) code = 1;
    if (end_state_ == DROVER_JOB_OOM && code == 0) code = 137;
    return code;
}

int StepSession::serve() {
    if (::pipe2(g_sig_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return 1;
    RawTerminal raw(r_.pty);
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGCONT})
        ::sigaction(sig, &sa, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
    route_stdin();
    while (nodes_done_.size() < nodes_.size()) {
        deliver_stdin();
        std::vector<pollfd> fds = poll_set();
        int n = ::poll(fds.data(), fds.size(), poll_timeout());
        if (n < 0 && errno != EINTR) break;
        if (wait_deadline_ && std::chrono::steady_clock::now() >= *wait_deadline_) {
            print_error(prog_, "First task exited " + std::to_string(*r_.wait_secs) + "s ago");
            cancel_step();
            wait_deadline_.reset();
        }
        if (n <= 0) continue;
        if (fds[0].revents & POLLIN && !take_signals()) return 1;
        std::size_t polled = io_.conns().size(); // the i-th is fds[3 + i] for i < polled
        if (fds[1].revents & POLLIN) io_.accept();
        if (fds[2].revents & (POLLIN | POLLHUP)) read_stdin();
        for (std::size_t i = 0; i < polled; ++i) serve_conn(io_.conns()[i], fds[3 + i].revents);
        io_.drop_closed();
        if (r_.wait_secs && !wait_deadline_ && !task_status_.empty() &&
            task_status_.size() < task_node_.size())
            wait_deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(*r_.wait_secs);
    }
    out_.flush();
    return step_exit_code();
}

int StepSession::run(uint32_t job_id) {
    mpi_ = r_.mpi.empty() ? checked_mpi_type(cli_config().mpi_default) : r_.mpi;
    if (!create(job_id)) return 1;
    if (!launch()) return 1;
    return serve();
}

} // namespace

int run_step(const SrunRequest &r, uint32_t job_id, const std::string &prog) {
    StepSession session(r, prog);
    return session.run(job_id);
}

} // namespace drover::cli
