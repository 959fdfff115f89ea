// sattach.cpp - sattach: a running step's output (the last of it first, then what follows),
// input and signals, from another terminal. The step's nodes connect to a port of ours as they
// do to srun's; leaving (Ctrl-C) leaves the step running.
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <map>
#include <set>

#include "cli/command_docs.hpp"
#include "cli/command_main.hpp"
#include "cli/sattach_args.hpp"
#include "cli/step_io_port.hpp"
#include "common/hostlist.hpp"
#include "net/client.hpp"

namespace drover::cli {

namespace {

constexpr const char *kProg = "sattach";

// Ctrl-C (SIGINT, SIGTERM) detaches: the step runs on. Set even where SIGINT came ignored (a
// shell's background job), as leaving is what sattach is for.
volatile sig_atomic_t g_detach = 0;
void on_detach(int) {
    g_detach = 1;
}

constexpr const char *kHelp =
    "Usage: sattach [options] <jobid.stepid>\n"
    "  --input-filter=id   send stdin to only the specified task\n"
    "  --output-filter=id  only print stdout from the specified task\n"
    "  --error-filter=id   only print stderr from the specified task\n"
    "  -l, --label         prepend task number to lines of stdout & stderr\n"
    "      --layout        print task layout info and exit (does not attach to tasks)\n"
    "      --pty           the step's task 0 runs in a terminal (srun --pty)\n"
    "  -Q, --quiet         quiet mode (suppress informational messages)\n"
    "  -v, --verbose       verbose mode (multiple -v's increase verbosity)\n"
    "  -V, --version       print the version and exit\n"
    "\nHelp options:\n"
    "  -h, --help          show this help message\n"
    "  -u, --usage         display brief usage message\n";

// The step's nodes as the controller has them; empty (said) when it has no such running step.
std::vector<std::string> step_nodes(const SattachArgs &a, uint32_t *num_tasks) {
    flatbuffers::FlatBufferBuilder fbb(64);
    auto ids = fbb.CreateVector(std::vector<uint32_t>{a.job_id});
    net::Reply reply;
    const auto *r = ask_ctld<proto::StepInfoResponse>(
        reply, fbb, proto::Body::StepInfoRequest,
        proto::CreateStepInfoRequest(fbb, ids, a.step_id).Union(),
        error_line(std::string(kProg) + ": error: Could not get job step info: "));
    if (!r) return {};
    if (r->steps())
        for (const auto *st : *r->steps())
            if (st->job_id() == a.job_id && st->step_id() == a.step_id) {
                *num_tasks = st->num_tasks();
                return hostlist_expand(st->node_list() ? st->node_list()->str() : "");
            }
    print_error(kProg, "Could not get job step info: Invalid job id specified");
    return {};
}

// Asks node to attach the step's I/O to port (0: only to say its tasks) and returns its tasks of
// the step; nullopt (said unless quiet) when the node runs none of it.
std::optional<std::vector<uint32_t>> attach_node(const SattachArgs &a, const std::string &node,
                                                 const StepIoPort *port) {
    const Config &conf = cli_config();
    const NodeConf *nc = conf.find_node(node);
    if (!nc) return std::nullopt;
    flatbuffers::FlatBufferBuilder q(256);
    auto host = q.CreateString(port ? port->host() : "");
    auto key = port ? q.CreateVector(reinterpret_cast<const uint8_t *>(port->key().data()),
                                     port->key().size())
                    : q.CreateVector(std::vector<uint8_t>{});
    q.Finish(proto::CreateMessage(
        q, proto::Body::StepAttachRequest,
        proto::CreateStepAttachRequest(q, a.job_id, a.step_id, host, port ? port->port() : 0, key)
            .Union()));
    try {
        net::Reply rep = net::call(conf.node_addr(*nc), conf.node_port(*nc), node,
                                   {q.GetBufferPointer(), q.GetSize()}, net::socket_signer(conf),
                                   int(conf.message_timeout) * 1000);
        const auto *r = rep.as<proto::StepAttachResponse>();
        std::vector<uint32_t> tasks;
        if (r->tasks()) tasks.assign(r->tasks()->begin(), r->tasks()->end());
        return tasks;
    } catch (const std::exception &e) {
        // A node that has finished its part says so; anything else (another user's step, a
        // node not answering) is an error.
        if (std::string(e.what()).rfind("no step ", 0) != 0)
            print_error(kProg, "Node " + node + ": " + e.what());
        else if (!a.quiet)
            write_err(std::string(kProg) + ": Node " + node + ": no tasks running\n");
        return std::nullopt;
    }
}

// --layout: the step's tasks node by node, as the nodes have them.
int print_layout(const SattachArgs &a, const std::vector<std::string> &nodes, uint32_t ntasks) {
    std::string out = "Job step layout:\n\t" + std::to_string(ntasks) + " tasks, " +
                      std::to_string(nodes.size()) + " nodes (" + hostlist_compress(nodes) +
                      ")\n\n";
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        std::vector<uint32_t> tasks =
            attach_node(a, nodes[i], nullptr).value_or(std::vector<uint32_t>{});
        out += "\tNode " + std::to_string(i) + " (" + nodes[i] + "), " +
               std::to_string(tasks.size()) + " task(s): ";
        for (uint32_t id : tasks) out += std::to_string(id) + " ";
        out += "\n";
    }
    write_out(out);
    return 0;
}

class Attachment {
  public:
    explicit Attachment(const SattachArgs &a) : a_(a), out_(a.label) {}
    int run(const std::vector<std::string> &nodes);

  private:
    void on_frame(IoConn &c, const stepio::Header &h, std::string_view data);
    void read_stdin();
    bool all_done() const {
        return std::all_of(attached_.begin(), attached_.end(),
                           [this](const std::string &n) { return done_.count(n) != 0; });
    }
    void give_up_silent_nodes();

    const SattachArgs &a_;
    StepIoPort io_;
    TaskOutput out_;
    std::set<std::string> attached_, done_;
    std::map<uint32_t, std::string> task_node_;
    int exit_code_ = 0;
    bool stdin_open_ = true;
};

void Attachment::on_frame(IoConn &c, const stepio::Header &h, std::string_view data) {
    auto shown = [](const std::optional<uint32_t> &f, uint32_t task) { return !f || *f == task; };
    if (h.type == stepio::Stdout && shown(a_.output_filter, h.task))
        out_.write(h.task, false, data);
    else if (h.type == stepio::Stderr && shown(a_.error_filter, h.task))
        out_.write(h.task, true, data);
    else if (h.type == stepio::Message)
        write_err(std::string(data) + "\n");
    else if (h.type == stepio::NodeDone)
        done_.insert(c.node);
    if (h.type != stepio::TaskExit || data.size() < 4) return;
    int status = int(stepio::get32(reinterpret_cast<const uint8_t *>(data.data())));
    int code = task_exit_code(status);
    exit_code_ = std::max(exit_code_, code);
    if (code && !a_.quiet)
        print_error(kProg, "task " + std::to_string(h.task) + " exited with exit code " +
                               std::to_string(code));
}

// Attached nodes that never connected back: nothing will come from them.
void Attachment::give_up_silent_nodes() {
    for (const auto &n : attached_) {
        if (done_.count(n)) continue;
        bool heard = std::any_of(io_.conns().begin(), io_.conns().end(),
                                 [&n](const IoConn &c) { return c.hello && c.node == n; });
        if (heard) continue;
        print_error(kProg, "Node " + n + ": no I/O connection");
        done_.insert(n);
        exit_code_ = std::max(exit_code_, 1);
    }
}

// Our input to the tasks (or the --input-filter task) on their nodes.
void Attachment::read_stdin() {
    char buf[65536];
    ssize_t got = ::read(0, buf, sizeof buf);
    if (got <= 0) {
        stdin_open_ = false;
        return;
    }
    uint32_t task = a_.input_filter ? *a_.input_filter : stepio::kAllTasks;
    std::string node = a_.input_filter ? task_node_[task] : "";
    for (auto &c : io_.conns())
        if (c.hello && !c.done && (node.empty() || c.node == node))
            stepio::frame(c.out, stepio::Stdin, task, {buf, std::size_t(got)});
}

int Attachment::run(const std::vector<std::string> &nodes) {
    const Config &conf = cli_config();
    const NodeConf *first = conf.find_node(nodes.front());
    std::string why;
    if (!first ||
        !io_.open(conf.node_addr(*first) + ":" + std::to_string(conf.node_port(*first)), &why))
        return print_error(kProg, why.empty() ? "unknown node " + nodes.front() : why), 1;
    for (const auto &n : nodes)
        if (auto t = attach_node(a_, n, &io_)) {
            attached_.insert(n);
            for (uint32_t id : *t) task_node_[id] = n;
        }
    if (attached_.empty()) return 1;
    ::signal(SIGPIPE, SIG_IGN);
    struct sigaction sa {};
    sa.sa_handler = on_detach;
    sa.sa_flags = SA_RESTART; // output being written is written whole (poll still wakes)
    for (int sig : {SIGINT, SIGTERM}) ::sigaction(sig, &sa, nullptr);
    // A node that took the attach but cannot reach us is given up after twice MessageTimeout.
    auto hello_by =
        std::chrono::steady_clock::now() + std::chrono::seconds(2 * conf.message_timeout);
    while (!all_done() && !g_detach) {
        std::vector<pollfd> fds{{io_.listen_fd(), POLLIN, 0}, {stdin_open_ ? 0 : -1, POLLIN, 0}};
        for (auto &c : io_.conns())
            fds.push_back({c.fd, short(POLLIN | (c.out.empty() ? 0 : POLLOUT)), 0});
        if (::poll(fds.data(), fds.size(), 1000) < 0 && errno != EINTR) break;
        if (std::chrono::steady_clock::now() > hello_by) give_up_silent_nodes();
        std::size_t polled = io_.conns().size();
        if (fds[0].revents & POLLIN) io_.accept();
        if (fds[1].revents & (POLLIN | POLLHUP)) read_stdin();
        for (std::size_t i = 0; i < polled; ++i) {
            IoConn &c = io_.conns()[i];
            if (io_.serve(c, fds[2 + i].revents,
                          [this](IoConn &ic, const stepio::Header &h, std::string_view d) {
                              on_frame(ic, h, d);
                          }))
                continue;
            if (c.hello) done_.insert(c.node); // the node is gone: nothing more from there
            c.done = true;
        }
        io_.drop_closed();
    }
    out_.flush();
    return exit_code_;
}

int run(const SattachArgs &a) {
    uint32_t ntasks = 0;
    std::vector<std::string> nodes = step_nodes(a, &ntasks);
    if (nodes.empty()) return 1;
    if (a.layout) return print_layout(a, nodes, ntasks);
    Attachment at(a);
    return at.run(nodes);
}

} // namespace

int sattach_main(std::span<const std::string> args) {
    return command_main<SattachArgs>({kProg, kHelp, kSattachUsage}, args, parse_sattach_args, run);
}

std::string_view sattach_help() {
    return kHelp;
}

} // namespace drover::cli
