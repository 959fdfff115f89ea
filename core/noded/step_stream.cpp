// step_stream.cpp - a step's I/O with srun and any sattach: the tasks' output and the step's
// messages framed to them, their input and signals to the tasks.
#include "noded/step_runner_impl.hpp"

#include <algorithm>
#include <csignal>
#include <spdlog/spdlog.h>

namespace drover::noded {

void StepRunner::Impl::send(const StepPtr &s, std::string bytes) {
    if (s->srun) queue(s, s->srun, std::move(bytes));
}

void StepRunner::Impl::drop_closed_links(const StepPtr &s) {
    std::erase_if(s->attached, [](const LinkPtr &l) { return l->closed && !l->writing; });
}

bool StepRunner::Impl::attach_link(const StepPtr &s, const std::string &host, uint16_t port,
                                   std::string key) {
    drop_closed_links(s);
    if (s->attached.size() >= Step::kMaxAttached) return false;
    auto l = std::make_shared<IoLink>();
    l->srun = false;
    s->attached.push_back(l);
    connect_link(s, l, host, port, std::move(key));
    // What it missed: the last output, and how the tasks that have ended ended.
    for (const auto &f : s->recent_output) queue(s, l, f);
    for (const auto &[task, status] : s->task_status) {
        std::string f;
        stepio::frame32(f, stepio::TaskExit, task, uint32_t(status));
        queue(s, l, std::move(f));
    }
    return true;
}

void StepRunner::Impl::to_all(const StepPtr &s, std::string bytes) {
    drop_closed_links(s);
    for (const auto &l : s->attached) queue(s, l, bytes);
    send(s, std::move(bytes));
}

void StepRunner::Impl::queue(const StepPtr &s, const LinkPtr &l, std::string bytes) {
    if (!l->sock || l->closed) return;
    if (!l->srun && l->queued + bytes.size() > Step::kMaxAttachedQueue)
        return io_lost(s, l, "sattach reads too slowly");
    l->queued += bytes.size();
    l->outq.push_back(std::move(bytes));
    flush(s, l);
}

void StepRunner::Impl::flush(const StepPtr &s, const LinkPtr &l) {
    if (l->writing || l->outq.empty() || !l->sock || l->closed) return;
    l->writing = true;
    asio::async_write(*l->sock, asio::buffer(l->outq.front()),
                      [self = shared_from_this(), s, l](boost::system::error_code ec, std::size_t) {
                          l->writing = false;
                          if (!l->outq.empty()) {
                              l->queued -= std::min(l->queued, l->outq.front().size());
                              l->outq.pop_front();
                          }
                          if (ec) return self->io_lost(s, l, ec.message());
                          self->flush(s, l);
                          self->maybe_close_io(s);
                      });
}

// Once NodeDone is queued, each link closes when everything queued for it is written.
void StepRunner::Impl::maybe_close_io(const StepPtr &s) {
    if (!s->done_queued) return;
    auto close_idle = [](const LinkPtr &l) {
        if (!l || !l->sock || l->closed || l->writing || !l->outq.empty()) return;
        boost::system::error_code ec;
        l->sock->shutdown(tcp::socket::shutdown_send, ec);
        l->closed = true;
        l->sock->close(ec);
    };
    close_idle(s->srun);
    for (const auto &l : s->attached) close_idle(l);
    // An sattach still reading the end gets a while, then goes (so does the step's record).
    if (s->linger_timer || s->attached.empty()) return;
    s->linger_timer = std::make_unique<asio::steady_timer>(
        io, std::chrono::milliseconds(Step::kAttachedLingerMs));
    s->linger_timer->async_wait([self = shared_from_this(), s](boost::system::error_code ec) {
        if (ec) return;
        for (const auto &l : s->attached) self->io_lost(s, l, "the step is over");
    });
}

void StepRunner::Impl::io_lost(const StepPtr &s, const LinkPtr &l, const std::string &why) {
    if (l->closed) return;
    l->closed = true;
    // The frame being written stays until its write completes (the write holds its bytes).
    while (l->outq.size() > (l->writing ? 1u : 0u)) l->outq.pop_back();
    l->queued = l->outq.empty() ? 0 : l->outq.front().size();
    if (!l->srun) { // to_all forgets it
        boost::system::error_code ec;
        if (l->sock) l->sock->close(ec);
        return;
    }
    if (!s->finished) {
        spdlog::warn("step {}: lost srun ({}); terminating it", s->label, why);
        terminate(s, DROVER_JOB_CANCELLED);
    }
}

void StepRunner::Impl::read_output(const StepPtr &s, Step::Output *o) {
    o->fd->async_read_some(asio::buffer(o->buf), [self = shared_from_this(), s,
                                                  o](boost::system::error_code ec, std::size_t n) {
        if (n) {
            std::string f;
            stepio::frame(f, o->type, o->task, {o->buf.data(), n});
            s->recent_output.push_back(f);
            s->recent_bytes += f.size();
            while (s->recent_output.size() > Step::kRecentOutput ||
                   s->recent_bytes > Step::kRecentBytes) {
                s->recent_bytes -= s->recent_output.front().size();
                s->recent_output.pop_front();
            }
            self->to_all(s, std::move(f));
        }
        if (ec) {
            boost::system::error_code ignore;
            o->fd->close(ignore);
            --s->open_outputs;
            return self->maybe_finish(s);
        }
        self->read_output(s, o);
    });
}

// A line srun prints as the step's own ("slurmstepd: error: ...").
void StepRunner::Impl::message(const StepPtr &s, const std::string &line) {
    std::string f;
    stepio::frame(f, stepio::Message, 0, line);
    to_all(s, std::move(f));
}

void StepRunner::Impl::connect_link(const StepPtr &s, const LinkPtr &l, const std::string &host,
                                    uint16_t port, std::string key_bytes) {
    l->sock = std::make_unique<tcp::socket>(io);
    key_bytes.resize(stepio::kKeyLen);
    std::string hello;
    stepio::frame(hello, stepio::Hello, 0, key_bytes + node);
    l->outq.push_front(std::move(hello));
    boost::system::error_code ec;
    auto addr = asio::ip::make_address(host, ec);
    if (ec) {
        spdlog::warn("step {}: I/O address {} is not valid; output is dropped", s->label, host);
        l->closed = true; // the step runs on without it
        return;
    }
    tcp::endpoint ep(addr, port);
    l->writing = true; // nothing is written before the connection is up
    l->sock->async_connect(ep, [self = shared_from_this(), s, l](boost::system::error_code e) {
        l->writing = false;
        if (e) return self->io_lost(s, l, "cannot connect: " + e.message());
        boost::system::error_code ig;
        l->sock->set_option(tcp::no_delay(true), ig);
        self->flush(s, l);
        self->read_io(s, l);
    });
}

// Input from a link: frames for tasks' stdin and signals.
void StepRunner::Impl::read_io(const StepPtr &s, const LinkPtr &l) {
    l->sock->async_read_some(
        asio::buffer(l->buf),
        [self = shared_from_this(), s, l](boost::system::error_code ec, std::size_t n) {
            l->in.append(reinterpret_cast<const char *>(l->buf.data()), n);
            while (l->in.size() >= stepio::kHeader) {
                stepio::Header h;
                if (!stepio::parse_header(reinterpret_cast<const uint8_t *>(l->in.data()), &h))
                    return self->io_lost(s, l, "malformed frame");
                if (l->in.size() < stepio::kHeader + h.len) break;
                std::string data = l->in.substr(stepio::kHeader, h.len);
                l->in.erase(0, stepio::kHeader + h.len);
                self->on_input(s, l, h, std::move(data));
            }
            if (ec) {
                if (!s->finished || !l->srun) return self->io_lost(s, l, ec.message());
                return;
            }
            self->read_io(s, l);
        });
}

void StepRunner::Impl::on_input(const StepPtr &s, const LinkPtr &l, const stepio::Header &h,
                                std::string data) {
    if (h.type == stepio::Signal && data.size() == 4) {
        int sig = int(stepio::get32(reinterpret_cast<const uint8_t *>(data.data())));
        if (sig > 0 && sig < NSIG) signal(s, sig);
    } else if (h.type == stepio::Stdin || (h.type == stepio::StdinEof && l->srun)) {
        // An empty entry in the queue closes that task's input (srun's end of input only: an
        // sattach that goes leaves the tasks' input open for the next).
        if (h.type == stepio::Stdin && data.empty()) return;
        for (auto &[t, p] : s->stdin_pipes)
            if (h.task == stepio::kAllTasks || h.task == t)
                s->stdin_queue.emplace_back(t, h.type == stepio::Stdin ? data : std::string());
        write_stdin(s);
    } else if (h.type == stepio::PmiFenceDone && l->srun) {
        pmi_fence_done(s, data);
    }
}

void StepRunner::Impl::write_stdin(const StepPtr &s) {
    if (s->stdin_writing) return;
    while (!s->stdin_queue.empty()) {
        auto &[task, data] = s->stdin_queue.front();
        auto it = s->stdin_pipes.find(task);
        if (it == s->stdin_pipes.end() || !it->second->is_open()) {
            s->stdin_queue.pop_front();
            continue;
        }
        if (data.empty()) {
            boost::system::error_code ec;
            it->second->close(ec);
            s->stdin_queue.pop_front();
            continue;
        }
        s->stdin_writing = true;
        asio::async_write(
            *it->second, asio::buffer(data),
            [self = shared_from_this(), s](boost::system::error_code ec, std::size_t) {
                s->stdin_writing = false;
                if (ec) {
                    // the task closed its input: drop what was for it
                    uint32_t t = s->stdin_queue.front().first;
                    boost::system::error_code ig;
                    s->stdin_pipes[t]->close(ig);
                }
                s->stdin_queue.pop_front();
                self->write_stdin(s);
            });
        return;
    }
}

} // namespace drover::noded
