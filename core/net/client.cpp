// client.cpp - blocking request/reply over TCP with POSIX sockets (no Boost, no crypto).
#include "net/client.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/config.hpp"
#include "net/fd.hpp"
#include "proto/frame.hpp"

namespace drover::net {

namespace {

int remaining_ms(const Deadline &d) {
    return d.remaining_ms();
}

// Connects to host:port, giving up at the deadline.
UniqueFd connect_tcp(const std::string &host, uint16_t port, const Deadline &deadline) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo *res = nullptr;
    std::string service = std::to_string(port);
    int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &res);
    if (rc != 0) throw NetError("cannot resolve " + host + ": " + gai_strerror(rc));
    std::string last = "no address";
    for (addrinfo *ai = res; ai; ai = ai->ai_next) {
        UniqueFd fd(::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
        if (!fd) continue;
        if (::connect(fd.get(), ai->ai_addr, ai->ai_addrlen) != 0) {
            if (errno != EINPROGRESS) {
                last = std::strerror(errno);
                continue;
            }
            pollfd p{fd.get(), POLLOUT, 0};
            int n = ::poll(&p, 1, remaining_ms(deadline));
            int err = 0;
            socklen_t len = sizeof err;
            if (n <= 0) {
                last = n == 0 ? "timed out" : std::strerror(errno);
                continue;
            }
            getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
            if (err != 0) {
                last = std::strerror(err);
                continue;
            }
        }
        int one = 1;
        setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        freeaddrinfo(res);
        return fd;
    }
    freeaddrinfo(res);
    throw ConnectFailed("connect to " + host + ":" + service + " failed: " + last);
}

} // namespace

int Deadline::remaining_ms() const {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        at - std::chrono::steady_clock::now());
    return left.count() < 0 ? 0 : int(left.count());
}

void write_all(int fd, const uint8_t *data, std::size_t len, const Deadline &deadline) {
    while (len > 0) {
        ssize_t n = ::send(fd, data, len, MSG_NOSIGNAL);
        if (n > 0) {
            data += n;
            len -= std::size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            pollfd p{fd, POLLOUT, 0};
            if (::poll(&p, 1, deadline.remaining_ms()) <= 0) throw NetError("send timed out");
            continue;
        }
        throw NetError(std::string("send failed: ") + std::strerror(errno));
    }
}

void read_all(int fd, uint8_t *data, std::size_t len, const Deadline &deadline) {
    while (len > 0) {
        ssize_t n = ::recv(fd, data, len, 0);
        if (n > 0) {
            data += n;
            len -= std::size_t(n);
            continue;
        }
        if (n == 0) throw NetError("connection closed by peer");
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, deadline.remaining_ms()) <= 0) throw NetError("reply timed out");
            continue;
        }
        throw NetError(std::string("receive failed: ") + std::strerror(errno));
    }
}

std::vector<uint8_t> sealed_frame(std::span<const uint8_t> message, std::string_view to,
                                  const Signer &sign) {
    Seal seal = sign(message, to);
    try {
        return proto::make_frame(message, to, seal.digest, seal.cred);
    } catch (const std::invalid_argument &e) {
        throw NetError(e.what());
    }
}

namespace {
ReplyCheck g_reply_check;
} // namespace

void set_reply_check(ReplyCheck check) {
    g_reply_check = std::move(check);
}

namespace {
std::string check_reply(const proto::FrameHeader &header, std::span<const uint8_t> preamble,
                        std::span<const uint8_t> body) {
    if (!g_reply_check || header.type == proto::Body::ForwardAccepted) return {};
    proto::Preamble p;
    std::string err = proto::decode_preamble(preamble, &p);
    return err.empty() ? g_reply_check(header, p, body) : err;
}
} // namespace

std::string accept_reply(const proto::FrameHeader &header, std::span<const uint8_t> preamble,
                         Reply &reply, const std::string &from) {
    std::string err = check_reply(header, preamble, reply.bytes);
    if (!err.empty()) return "reply from " + from + " refused: " + err;
    err = proto::verify_message(reply.bytes, header.type, &reply.msg);
    if (!err.empty()) return "bad reply from " + from + ": " + err;
    return {};
}

Reply read_frame(int fd, const Deadline &deadline, const std::string &from, uint32_t max_body) {
    uint8_t header[proto::kFrameHeaderSize];
    read_all(fd, header, sizeof header, deadline);
    proto::FrameHeader h;
    std::string err = proto::decode_frame_header(header, &h, max_body);
    if (!err.empty()) throw NetError("bad reply from " + from + ": " + err);
    uint8_t preamble[proto::kMaxPreamble];
    read_all(fd, preamble, h.preamble_len, deadline);
    Reply reply;
    reply.bytes.resize(h.body_len);
    read_all(fd, reply.bytes.data(), h.body_len, deadline);
    err = accept_reply(h, {preamble, h.preamble_len}, reply, from);
    if (!err.empty()) throw NetError(err);
    return reply;
}

namespace {

// connect_ms bounds the connection alone: a controller that is cut off must not hold the caller
// for the whole request timeout when another controller may answer.
Reply call_once(const std::string &host, uint16_t port, const std::string &to,
                std::span<const uint8_t> message, const Signer &sign, int timeout_ms,
                int connect_ms) {
    Deadline deadline(timeout_ms);
    std::vector<uint8_t> frame = sealed_frame(message, to, sign);
    UniqueFd fd = connect_tcp(host, port, Deadline(std::min(timeout_ms, connect_ms)));
    write_all(fd.get(), frame.data(), frame.size(), deadline);

    // A node sends ForwardAccepted ahead of its reply to a ForwardRequest: the reply follows.
    for (;;) {
        Reply reply = read_frame(fd.get(), deadline, host);
        if (reply.msg->body_type() != proto::Body::ForwardAccepted) return reply;
    }
}

// The controller that answered last, tried first next time (a daemon follows a takeover).
std::atomic<std::size_t> g_in_control{0};

} // namespace

Reply call(const std::string &host, uint16_t port, const std::string &to,
           std::span<const uint8_t> message, const Signer &sign, int timeout_ms) {
    return call_once(host, port, to, message, sign, timeout_ms, timeout_ms);
}

Reply call_controller(const Config &conf, std::span<const uint8_t> message, const Signer &sign,
                      int timeout_ms, bool wait_for_takeover) {
    const auto &cs = conf.controllers;
    const std::size_t n = cs.size();
    // While a standby answers, one of them takes control within SlurmctldTimeout.
    auto now0 = std::chrono::steady_clock::now();
    auto give_up = now0 + std::chrono::seconds(conf.slurmctld_timeout + 10);
    // Until then a controller that is down or restarting may come up (nothing was sent).
    auto restart_limit = now0 + std::chrono::seconds(conf.message_timeout);
    // The credential socket may be between daemons too: its server (the controller or a node
    // daemon of this host) stopped, and another daemon of the host takes it over within seconds.
    // This happens with one controller as well, when the node daemon serving it reboots.
    Signer patient = [&](std::span<const uint8_t> m, std::string_view to) {
        for (;;) {
            try {
                return sign(m, to);
            } catch (const SocketUnreachable &) {
                auto limit = n > 1 ? give_up : restart_limit;
                if (!wait_for_takeover || std::chrono::steady_clock::now() > limit) throw;
                std::this_thread::sleep_for(std::chrono::milliseconds(250));
            }
        }
    };
    bool standby = false; // once seen, a takeover is under way: keep trying through it
    int unreachable_rounds = 0;
    for (;;) {
        std::size_t first = g_in_control.load() % std::max<std::size_t>(n, 1);
        bool all_refused = true;
        for (std::size_t k = 0; k < n; ++k) {
            std::size_t i = (first + k) % n;
            try {
                Reply r =
                    call_once(cs[i].addr.empty() ? cs[i].name : cs[i].addr, conf.slurmctld_port,
                              cs[i].name, message, patient, timeout_ms, n > 1 ? 2000 : timeout_ms);
                const auto *e = r.msg->body_as_ErrorResponse();
                if (e && e->code() == kNotInControl) {
                    standby = true;
                    continue;
                }
                g_in_control = i;
                return r;
            } catch (const ConnectFailed &) {
            } catch (const NetError &) {
                all_refused = false;
            }
        }
        if (!wait_for_takeover) break;
        auto now = std::chrono::steady_clock::now();
        if (!standby && all_refused && now < restart_limit) {
            std::this_thread::sleep_for(std::chrono::seconds(1));
            continue;
        }
        // With backups, every controller refusing at once may be one of them between standing by
        // and taking control: look again a few times before giving up.
        bool between = n > 1 && ++unreachable_rounds <= 4;
        if ((!standby && !between) || now > give_up) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    throw NetError("Unable to contact slurm controller (connect failure)");
}

} // namespace drover::net
