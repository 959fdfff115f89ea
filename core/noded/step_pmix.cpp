// step_pmix.cpp - srun --mpi=pmix on the node: the step's drover-pmix helper (noded/pmix/), a
// PMIx server run as the step's user, started before the tasks: each task's environment gets the
// PMIx variables the helper's server made for its rank. The helper's fences go to srun on the
// step's I/O connection (PmiFence) and srun's answer back to it (PmiFenceDone), as for pmi2; an
// abort becomes PmiAbort, on which srun cancels the step.
#include "noded/step_runner_impl.hpp"
#include "noded/supervisor.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstring>
#include <drover/plugin.h>
#include <filesystem>
#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "noded/pmix/pmix_link.hpp"
#include "noded/step_env.hpp"

namespace drover::noded {

namespace {

// The most a helper may send before Ready: each local rank's variables, a few KiB each.
constexpr std::size_t kMaxStartBytes = 16u << 20;

// The step's layout as drover-pmix reads it: its nodes ("n1,n2") and each node's ranks
// ("0,1;2,3").
std::pair<std::string, std::string> layout_args(const proto::StepCred &cred,
                                                const proto::StepLaunchRequest &req) {
    std::string nodes, ranks;
    auto by_node = ranks_by_node(req);
    for (uint32_t n = 0; n < cred.nodes()->size(); ++n) {
        nodes += (n ? "," : "") + cred.nodes()->Get(n)->str();
        if (n) ranks += ";";
        for (std::size_t k = 0; n < by_node.size() && k < by_node[n].size(); ++k)
            ranks += (k ? "," : "") + std::to_string(by_node[n][k]);
    }
    return {nodes, ranks};
}

// Forks the helper as the user with the socket's other end on its standard input.
pid_t spawn_helper(const std::string &path, const RunAs &user, int sock,
                   const std::vector<std::string> &args) {
    std::vector<char *> argv{const_cast<char *>(path.c_str())};
    for (const auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    char env_path[] = "PATH=/usr/bin:/bin";
    char *envp[] = {env_path, nullptr};
    pid_t pid = ::fork();
    if (pid != 0) return pid;
    ::dup2(sock, 0);
    ::close_range(3, ~0u, 0);
    if (drop_privileges(user)) ::_exit(126);
    ::execve(argv[0], argv.data(), envp);
    ::_exit(127);
}

// why (with errno's words) as a DROVER_EIO failure, the directory made for the helper removed.
Status fail_dir(const std::string &dir, const std::string &why) {
    Status out(DROVER_EIO, "mpi/pmix: " + why + ": " + std::strerror(errno));
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    return out;
}

// The helper's frames until Ready: each rank's variables go into its task's environment. This
// waits on droverd's loop (the tasks cannot start without the variables); the server is up in
// tens of milliseconds, and a helper that is not within 30 s fails the launch (DROVER_EIO, as
// does a helper that fails or goes away first).
Status await_ready(int sock, ShepherdSpec &spec) {
    std::string in;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        bool bad;
        while (auto f = pmixlink::take(in, &bad)) {
            if (f->type == pmixlink::Ready) return {};
            if (f->type == pmixlink::Failed)
                return {DROVER_EIO, "mpi/pmix: " + std::string(f->data)};
            std::string_view vars = f->data;
            for (ShepherdTask &t : spec.tasks)
                for (std::size_t at = 0; t.task_id == f->rank && at < vars.size();) {
                    std::size_t end = std::min(vars.find('\0', at), vars.size());
                    t.env.emplace_back(vars.substr(at, end - at));
                    at = end + 1;
                }
            in.erase(0, f->used);
        }
        if (bad) return {DROVER_EIO, "mpi/pmix: drover-pmix sent a malformed frame"};
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        pollfd p{sock, POLLIN, 0};
        int ready = left.count() <= 0 ? 0 : ::poll(&p, 1, int(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) return {DROVER_EIO, "mpi/pmix: drover-pmix did not start within 30 s"};
        if (in.size() > kMaxStartBytes) return {DROVER_EIO, "mpi/pmix: drover-pmix sent too much"};
        char buf[65536];
        ssize_t n = ::recv(sock, buf, sizeof buf, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            return {DROVER_EIO, "mpi/pmix: drover-pmix ended before the PMIx server was up"};
        in.append(buf, std::size_t(n));
    }
}

} // namespace

Status StepRunner::Impl::wire_pmix(const StepPtr &s, const proto::StepLaunchRequest &req,
                                   const LaunchPlan &plan, ShepherdSpec &spec) {
    if (!req.mpi() || req.mpi()->str() != "pmix") return {};
    std::string path = program_beside_daemon("drover-pmix");
    if (::access(path.c_str(), X_OK) != 0)
        return {DROVER_EIO, "mpi/pmix: " + path + " is not there (droverd was built without it)"};
    auto pmix = std::make_unique<StepPmix>();
    // The PMIx server's directory, the user's own (its tasks connect to it).
    pmix->dir = conf.tmp_fs + "/drover-pmix." + node + "." + s->label;
    std::error_code ec;
    std::filesystem::remove_all(pmix->dir, ec);
    if (::mkdir(pmix->dir.c_str(), 0700) != 0 ||
        (must_drop(::geteuid()) && ::chown(pmix->dir.c_str(), s->uid, s->gid) != 0))
        return fail_dir(pmix->dir, "cannot create " + pmix->dir);
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return fail_dir(pmix->dir, "cannot create a socket");
    auto [nodes, ranks] = layout_args(*plan.cred, req);
    pmix->pid = spawn_helper(
        path, spec.user, fds[1],
        {"drover.pmix." + s->label, std::to_string(plan.node_index), nodes, ranks, pmix->dir});
    ::close(fds[1]);
    pmix->sock = std::make_unique<asio::local::stream_protocol::socket>(
        io, asio::local::stream_protocol(), fds[0]);
    s->pmix = std::move(pmix);
    if (s->pmix->pid < 0)
        return {DROVER_EIO, std::string("mpi/pmix: cannot fork: ") + std::strerror(errno)};
    // Its directory goes once it has (its server may still write there as it finalizes).
    reaper.watch(s->pmix->pid, [dir = s->pmix->dir](int, const struct rusage &) {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    });
    return await_ready(fds[0], spec);
}

void StepRunner::Impl::read_pmix(const StepPtr &s) {
    auto &p = *s->pmix;
    p.sock->async_read_some(asio::buffer(p.buf), [self = shared_from_this(),
                                                  s](boost::system::error_code ec, std::size_t n) {
        if (!s->pmix) return;
        auto &p = *s->pmix;
        p.in.append(p.buf.data(), n);
        bool bad;
        while (auto f = pmixlink::take(p.in, &bad)) {
            std::string up;
            if (f->type == pmixlink::Fence) stepio::frame(up, stepio::PmiFence, 0, f->data);
            if (f->type == pmixlink::Abort && !s->terminating)
                stepio::frame(up, stepio::PmiAbort, f->rank, f->data);
            if (!up.empty()) self->send(s, std::move(up));
            p.in.erase(0, f->used);
        }
        if (ec || bad) {
            if (s->finished || s->terminating) return;
            // Its ranks cannot fence any more: the step ends as after an abort.
            spdlog::warn("step {}: drover-pmix went away", s->label);
            std::string f;
            stepio::frame(f, stepio::PmiAbort, 0, std::string(4, '\xff'));
            return self->send(s, std::move(f));
        }
        self->read_pmix(s);
    });
}

void StepRunner::Impl::write_pmix(const StepPtr &s, std::string bytes) {
    s->pmix->outq.push_back(std::move(bytes));
    flush_pmix(s);
}

void StepRunner::Impl::flush_pmix(const StepPtr &s) {
    auto &p = *s->pmix;
    if (p.writing || p.outq.empty()) return;
    p.writing = true;
    asio::async_write(*p.sock, asio::buffer(p.outq.front()),
                      [self = shared_from_this(), s](boost::system::error_code ec, std::size_t) {
                          if (!s->pmix) return; // the step ended meanwhile
                          s->pmix->writing = false;
                          s->pmix->outq.pop_front();
                          if (!ec) self->flush_pmix(s);
                      });
}

void StepRunner::Impl::end_mpi(const StepPtr &s) {
    s->pmi.reset();
    if (!s->pmix) return;
    // Its socket closed, the helper finalizes its server and exits; the reaper collects it.
    boost::system::error_code ec;
    s->pmix->sock->close(ec);
    if (s->pmix->pid <= 0) {
        std::error_code fec;
        std::filesystem::remove_all(s->pmix->dir, fec);
    }
    s->pmix.reset();
}

} // namespace drover::noded
