// step_stream.cpp - a step's I/O with srun: the tasks' output and the step's messages framed to
// it, its input and signals to the tasks.
#include "noded/step_runner_impl.hpp"

#include <csignal>
#include <spdlog/spdlog.h>

namespace drover::noded {

void StepRunner::Impl::send(const StepPtr &s, std::string bytes) {
    if (!s->io || s->io_closed) return;
    s->outq.push_back(std::move(bytes));
    flush(s);
}

void StepRunner::Impl::flush(const StepPtr &s) {
    if (s->writing || s->outq.empty() || !s->io || s->io_closed) return;
    s->writing = true;
    asio::async_write(*s->io, asio::buffer(s->outq.front()),
                      [self = shared_from_this(), s](boost::system::error_code ec, std::size_t) {
                          s->writing = false;
                          if (!s->outq.empty()) s->outq.pop_front();
                          if (ec) return self->io_lost(s, ec.message());
                          self->flush(s);
                          self->maybe_close_io(s);
                      });
}

void StepRunner::Impl::maybe_close_io(const StepPtr &s) {
    if (s->done_queued && s->outq.empty() && !s->writing && s->io && !s->io_closed) {
        boost::system::error_code ec;
        s->io->shutdown(tcp::socket::shutdown_send, ec);
        s->io_closed = true;
        s->io->close(ec);
    }
}

// srun went away before the step ended: the step goes too, as Slurm ends a step whose srun
// is gone.
void StepRunner::Impl::io_lost(const StepPtr &s, const std::string &why) {
    if (s->io_closed) return;
    s->io_closed = true;
    // The frame being written stays until its write completes (the write holds its bytes).
    while (s->outq.size() > (s->writing ? 1u : 0u)) s->outq.pop_back();
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
            self->send(s, std::move(f));
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
    send(s, std::move(f));
}

void StepRunner::Impl::connect_srun(const StepPtr &s, const std::string &host, uint16_t port,
                                    std::string key_bytes) {
    s->io = std::make_unique<tcp::socket>(io);
    key_bytes.resize(stepio::kKeyLen);
    std::string hello;
    stepio::frame(hello, stepio::Hello, 0, key_bytes + node);
    s->outq.push_front(std::move(hello));
    boost::system::error_code ec;
    auto addr = asio::ip::make_address(host, ec);
    if (ec) {
        spdlog::warn("step {}: srun's address {} is not valid; output is dropped", s->label, host);
        s->io_closed = true;
        return;
    }
    tcp::endpoint ep(addr, port);
    s->writing = true; // nothing is written before the connection is up
    s->io->async_connect(ep, [self = shared_from_this(), s](boost::system::error_code e) {
        s->writing = false;
        if (e) return self->io_lost(s, "cannot connect to srun: " + e.message());
        boost::system::error_code ig;
        s->io->set_option(tcp::no_delay(true), ig);
        self->flush(s);
        self->read_io(s);
    });
}

// Input from srun: frames for tasks' stdin and signals.
void StepRunner::Impl::read_io(const StepPtr &s) {
    s->io->async_read_some(
        asio::buffer(s->io_buf),
        [self = shared_from_this(), s](boost::system::error_code ec, std::size_t n) {
            s->io_in.append(reinterpret_cast<const char *>(s->io_buf.data()), n);
            while (s->io_in.size() >= stepio::kHeader) {
                stepio::Header h;
                if (!stepio::parse_header(reinterpret_cast<const uint8_t *>(s->io_in.data()), &h))
                    return self->io_lost(s, "malformed frame from srun");
                if (s->io_in.size() < stepio::kHeader + h.len) break;
                std::string data = s->io_in.substr(stepio::kHeader, h.len);
                s->io_in.erase(0, stepio::kHeader + h.len);
                self->on_input(s, h, std::move(data));
            }
            if (ec) {
                if (!s->finished) return self->io_lost(s, ec.message());
                return;
            }
            self->read_io(s);
        });
}

void StepRunner::Impl::on_input(const StepPtr &s, const stepio::Header &h, std::string data) {
    if (h.type == stepio::Signal && data.size() == 4) {
        int sig = int(stepio::get32(reinterpret_cast<const uint8_t *>(data.data())));
        if (sig > 0 && sig < NSIG) signal(s, sig);
    } else if (h.type == stepio::Stdin || h.type == stepio::StdinEof) {
        // An empty entry in the queue closes that task's input.
        if (h.type == stepio::Stdin && data.empty()) return;
        for (auto &[t, p] : s->stdin_pipes)
            if (h.task == stepio::kAllTasks || h.task == t)
                s->stdin_queue.emplace_back(t, h.type == stepio::Stdin ? data : std::string());
        write_stdin(s);
    } else if (h.type == stepio::PmiFenceDone) {
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
