// step_pmi.cpp - srun --mpi=pmi2 on the node: each local task gets a socket to this droverd (its
// PMI_FD), the step's PMI server (common/pmi_server.hpp) answers what the tasks send there, and
// a fence's keys travel to srun on the step's I/O connection (PmiFence), which answers every
// node with every node's keys once all have sent theirs (PmiFenceDone).
//
// A task that asks PMI to abort, or whose channel closes before it finalized (an MPI rank that
// died), is told to srun (PmiAbort), which cancels the step on every node: the other ranks would
// otherwise wait in their next fence for ever.
#include "noded/step_runner_impl.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <drover/plugin.h>
#include <spdlog/spdlog.h>

#include "noded/pmix/pmix_link.hpp"
#include "noded/step_env.hpp"

namespace drover::noded {

namespace {

constexpr std::size_t kMaxQueuedReplies = 4096; // per task, not yet written to it

// Which node (index in the credential) runs each rank of the step.
std::vector<uint32_t> node_of_ranks(const proto::StepLaunchRequest &req) {
    std::vector<uint32_t> node_of(req.task_ids() ? req.task_ids()->size() : 0);
    auto ranks = ranks_by_node(req);
    for (uint32_t n = 0; n < ranks.size(); ++n)
        for (uint32_t rank : ranks[n])
            if (rank < node_of.size()) node_of[rank] = n;
    return node_of;
}

} // namespace

Status StepRunner::Impl::wire_pmi(const StepPtr &s, const proto::StepLaunchRequest &req,
                                  ShepherdSpec &spec, std::vector<int> &close_after) {
    if (!req.mpi() || req.mpi()->str() != "pmi2") return {};
    auto pmi = std::make_unique<StepPmi>();
    pmi::StepInfo info{s->label, req.num_tasks(), s->tasks,
                       pmi::process_mapping(node_of_ranks(req)), 0};
    std::weak_ptr<Impl> weak_self = shared_from_this();
    std::weak_ptr<Step> weak_step = s;
    pmi::Host host;
    host.send = [weak_self, weak_step](uint32_t rank, std::string bytes) {
        auto self = weak_self.lock();
        auto st = weak_step.lock();
        if (!self || !st || !st->pmi || !st->pmi->channels.count(rank)) return;
        auto &c = st->pmi->channels[rank];
        // A task that asks and never reads its replies does not grow droverd without end.
        if (c.outq.size() >= kMaxQueuedReplies) {
            boost::system::error_code ignore;
            c.sock->shutdown(asio::socket_base::shutdown_both, ignore);
            return;
        }
        c.outq.push_back(std::move(bytes));
        self->write_pmi(st, rank);
    };
    host.fence = [weak_self, weak_step](std::string blob) {
        auto self = weak_self.lock();
        auto st = weak_step.lock();
        if (!self || !st) return;
        std::string f;
        stepio::frame(f, stepio::PmiFence, 0, blob);
        self->send(st, std::move(f));
    };
    host.abort = [weak_self, weak_step](uint32_t rank, int code, std::string why) {
        auto self = weak_self.lock();
        auto st = weak_step.lock();
        // Ranks the step's end kills close their channels too: no news.
        if (!self || !st || st->terminating) return;
        spdlog::info("step {}: task {} {}", st->label, rank,
                     code < 0 ? "ended before PMI finalize" : "called PMI abort");
        std::string data(4, '\0');
        stepio::put32(reinterpret_cast<uint8_t *>(data.data()), uint32_t(code));
        std::string f;
        stepio::frame(f, stepio::PmiAbort, rank, data + why);
        self->send(st, std::move(f));
    };
    spec.env.push_back("PMI_JOBID=" + s->label);
    spec.env.push_back("PMI_SIZE=" + std::to_string(req.num_tasks()));
    for (ShepherdTask &t : spec.tasks) {
        int fds[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
            return {DROVER_EIO,
                    std::string("cannot create the PMI socket: ") + std::strerror(errno)};
        t.pmi_fd = fds[1];
        close_after.push_back(fds[1]);
        t.env.push_back("PMI_FD=" + std::to_string(kPmiFd));
        t.env.push_back("PMI_RANK=" + std::to_string(t.task_id));
        auto &c = pmi->channels[t.task_id];
        c.sock = std::make_unique<asio::local::stream_protocol::socket>(
            io, asio::local::stream_protocol(), fds[0]);
    }
    pmi->server = std::make_unique<pmi::Server>(std::move(info), std::move(host));
    s->pmi = std::move(pmi);
    return {};
}

void StepRunner::Impl::serve_mpi(const StepPtr &s) {
    if (s->pmix) read_pmix(s);
    if (!s->pmi) return;
    for (auto &[rank, c] : s->pmi->channels) read_pmi(s, rank);
}

void StepRunner::Impl::read_pmi(const StepPtr &s, uint32_t rank) {
    auto &c = s->pmi->channels[rank];
    c.sock->async_read_some(asio::buffer(c.buf), [self = shared_from_this(), s, rank](
                                                     boost::system::error_code ec, std::size_t n) {
        if (!s->pmi) return; // the step ended meanwhile
        auto &ch = s->pmi->channels[rank];
        bool ok = !ec && s->pmi->server->feed(rank, {ch.buf.data(), n});
        if (ok) return self->read_pmi(s, rank);
        if (!ec) spdlog::warn("step {}: task {} sent PMI a malformed request", s->label, rank);
        // Closed by the task's end, or refused: the server decides whether that aborts.
        boost::system::error_code ignore;
        ch.sock->shutdown(asio::socket_base::shutdown_receive, ignore);
        s->pmi->server->closed(rank);
    });
}

void StepRunner::Impl::write_pmi(const StepPtr &s, uint32_t rank) {
    auto &c = s->pmi->channels[rank];
    if (c.writing || c.outq.empty()) return;
    c.writing = true;
    asio::async_write(
        *c.sock, asio::buffer(c.outq.front()),
        [self = shared_from_this(), s, rank](boost::system::error_code ec, std::size_t) {
            if (!s->pmi) return; // the step ended meanwhile
            auto &ch = s->pmi->channels[rank];
            ch.writing = false;
            ch.outq.pop_front();
            if (ec) return ch.outq.clear(); // the task is gone
            self->write_pmi(s, rank);
        });
}

void StepRunner::Impl::pmi_fence_done(const StepPtr &s, const std::string &all) {
    if (s->pmix) {
        std::string f;
        noded::pmixlink::frame(f, noded::pmixlink::FenceDone, 0, all);
        return write_pmix(s, std::move(f));
    }
    if (!s->pmi) return;
    if (!s->pmi->server->fence_done(all))
        spdlog::warn("step {}: srun's PMI fence result is malformed", s->label);
}

} // namespace drover::noded
