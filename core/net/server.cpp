// server.cpp - Asio accept/read/write loops for the RPC server and the credential socket.
//
// A connection reads one frame, checks it (header, then the preamble's receiver and credential,
// then the body's digest and the FlatBuffers verifier), hands the request to the handler and waits
// for its reply before reading the next frame. Anything wrong with a frame is logged (a line per
// interval at most) and closes that connection only; the server keeps serving everyone else.
// Connections are admitted through the process's Admission (admission.hpp).
#include "net/server.hpp"

#include <deque>
#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/config.hpp"
#include "net/accept_loop.hpp"
#include "net/admission.hpp"
#include "net/authenticator.hpp"
#include "net/http_get.hpp"
#include "net/log_limit.hpp"
#include "proto/frame.hpp"

namespace asio = boost::asio;
using asio::ip::tcp;

namespace drover::net {

std::vector<uint8_t> make_error(int code, const std::string &text) {
    flatbuffers::FlatBufferBuilder fbb(128 + text.size());
    auto e = proto::CreateErrorResponseDirect(fbb, code, text.c_str());
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::ErrorResponse, e.Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

std::vector<uint8_t> make_ok(const std::string &text) {
    flatbuffers::FlatBufferBuilder fbb(64 + text.size());
    auto e = proto::CreateOkResponseDirect(fbb, text.c_str());
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::OkResponse, e.Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

void Responder::error(int code, const std::string &text) {
    reply(make_error(code, text));
}
void Responder::ok(const std::string &text) {
    reply(make_ok(text));
}

uint32_t body_limit(proto::Body type, uint32_t script_limit) {
    switch (type) {
    case proto::Body::JobSubmitRequest: // the script and the environment
    case proto::Body::BatchLaunchRequest:
        return script_limit;
    case proto::Body::JobUpdateRequest:
        return 64u << 20;
    case proto::Body::StepLaunchRequest:   // the task layout of a large step
    case proto::Body::ForwardRequest:      // node lists and the message forwarded
    case proto::Body::NodeRegisterRequest: // the jobs and steps an emulating daemon runs
    case proto::Body::AcctAdminRequest:
        return proto::kMaxFrameBody;
    default:
        return 1u << 20;
    }
}

ServerLimits server_limits(const Config &conf) {
    ServerLimits l;
    l.message_timeout = std::chrono::seconds(conf.message_timeout);
    l.script_limit =
        uint32_t(std::min<uint64_t>(conf.max_script_size + (16u << 20), proto::kMaxFrameBody));
    return l;
}

namespace {

constexpr int DROVER_AUTH_REFUSED = -1;

// What every connection of one server shares.
struct ServerShared {
    ServerShared(const Authenticator &a, Handler h, std::string n, ServerLimits l)
        : auth(a), handler(std::move(h)), name(std::move(n)), limits(std::move(l)) {}
    const Authenticator &auth;
    Handler handler;
    std::string name;
    ServerLimits limits;
    HttpHandler http; // set: a connection that starts "GET " is an HTTP request (http_get.hpp)
    LogLimit refused_log, evicted_log;
};

// One connection: reads a frame (header, preamble: authenticated; then the body), hands the request
// to the handler, writes its reply, and waits for the next frame. A frame must arrive whole within
// MessageTimeout of the connection's accept or its last reply.
class Connection : public std::enable_shared_from_this<Connection> {
  public:
    Connection(tcp::socket sock, std::shared_ptr<ServerShared> shared, Admission::Id id)
        : sock_(std::move(sock)), timer_(sock_.get_executor()), shared_(std::move(shared)),
          id_(id) {
        boost::system::error_code ec;
        auto ep = sock_.remote_endpoint(ec);
        if (!ec) peer_addr_ = ep.address().to_string() + ":" + std::to_string(ep.port());
        sock_.set_option(tcp::no_delay(true), ec);
    }
    ~Connection() { Admission::process().close(id_); }

    void start() { read_header(); }

    // What closes this connection when the admission evicts it (from any thread).
    std::function<void()> closer() {
        return [weak = weak_from_this(), ex = sock_.get_executor()] {
            asio::post(ex, [weak] {
                auto self = weak.lock();
                if (!self) return;
                uint64_t held = 0;
                if (self->shared_->evicted_log.allow(&held))
                    spdlog::warn(
                        "port {}: closed a connection from {} that had sent no whole frame, "
                        "for a newer one: too many connections waiting{}",
                        self->local_port(), self->peer_addr_, not_logged(held));
                self->close();
            });
        };
    }

    // Sends message; the connection reads its next request once the last frame is out. An
    // interim frame (ForwardAccepted) goes ahead of the reply, which may be sent before it is out.
    void send(std::span<const uint8_t> message, bool last = true, bool then_close = false) {
        if (!sock_.is_open()) return;
        std::vector<uint8_t> frame;
        try {
            // ForwardAccepted says only "alive" on a connection the sender opened: a forged one
            // could only make it wait for its deadline instead of its hop timeout. Left unsigned,
            // it costs a hop of the tree one frame, not a second signature.
            Seal seal = last ? shared_->auth.seal_as_self(message, "") : Seal{{}, {0}};
            frame = proto::make_frame(message, "", seal.digest, seal.cred);
        } catch (const std::exception &e) {
            spdlog::error("cannot sign reply to {}: {}", peer_addr_, e.what());
            close();
            return;
        }
        out_.push_back({std::move(frame), last, then_close});
        if (out_.size() == 1) write_front();
    }

    // 0 once the socket is closed (an eviction may come after that).
    uint16_t local_port() const {
        boost::system::error_code ec;
        auto ep = sock_.local_endpoint(ec);
        return ec ? 0 : ep.port();
    }

    void close() {
        boost::system::error_code ec;
        timer_.cancel();
        sock_.close(ec);
    }

  private:
    struct Out {
        std::vector<uint8_t> frame;
        bool last;
        bool then_close;
    };

    void write_front() {
        auto self = shared_from_this();
        asio::async_write(sock_, asio::buffer(out_.front().frame),
                          [self](boost::system::error_code ec, size_t) {
                              if (ec) return self->close();
                              Out done = std::move(self->out_.front());
                              self->out_.pop_front();
                              if (!self->out_.empty()) return self->write_front();
                              if (done.then_close) return self->close();
                              if (done.last) {
                                  if (!Admission::process().wait(self->id_)) return self->close();
                                  self->read_header();
                              }
                          });
    }

    void arm_timer() {
        timer_.expires_after(shared_->limits.message_timeout);
        timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
            if (ec) return;
            if (auto self = weak.lock()) self->close();
        });
    }

    void read_header() {
        arm_timer();
        auto self = shared_from_this();
        asio::async_read(
            sock_, asio::buffer(header_), [self](boost::system::error_code ec, size_t) {
                if (ec) return self->close();
                std::string err = proto::decode_frame_header(self->header_.data(), &self->frame_,
                                                             proto::kMaxFrameBody);
                if (!err.empty() && self->shared_->http &&
                    std::string_view(reinterpret_cast<const char *>(self->header_.data()), 4) ==
                        "GET ")
                    return self->read_http();
                if (!err.empty()) return self->refuse(err);
                self->read_preamble();
            });
    }

    // An HTTP GET (a scraper's): its head, read within what is left of MessageTimeout and at
    // most kMaxHttpHead bytes, is answered by the daemon's HttpHandler; then the connection
    // closes. Nothing about the peer is known: the handler serves only what anyone may read.
    void read_http() {
        http_in_.assign(reinterpret_cast<const char *>(header_.data()), header_.size());
        auto self = shared_from_this();
        asio::async_read_until(sock_, asio::dynamic_buffer(http_in_, kMaxHttpHead), "\r\n\r\n",
                               [self](boost::system::error_code ec, size_t) {
                                   if (ec) return self->refuse("HTTP request head too long or cut");
                                   self->answer_http();
                               });
    }

    void answer_http() {
        arm_timer(); // a peer that does not read the answer is closed at MessageTimeout
        HttpGet get = parse_http_get(http_in_);
        HttpReply reply;
        if (!get.error.empty())
            reply = {400, "text/plain", get.error + "\n"};
        else
            reply = shared_->http(get.path);
        http_in_.clear();
        auto bytes = std::make_shared<std::string>(http_response(reply));
        asio::async_write(sock_, asio::buffer(*bytes),
                          [self = shared_from_this(), bytes](boost::system::error_code, size_t) {
                              self->close();
                          });
    }

    void read_preamble() {
        auto self = shared_from_this();
        asio::async_read(sock_, asio::buffer(preamble_.data(), frame_.preamble_len),
                         [self](boost::system::error_code ec, size_t) {
                             if (ec) return self->close();
                             self->authenticate();
                         });
    }

    // The sender proves who it is before anything the size of its body is allocated.
    void authenticate() {
        proto::Preamble p;
        std::string err = proto::decode_preamble({preamble_.data(), frame_.preamble_len}, &p);
        if (!err.empty()) return refuse(err);
        std::string type = proto::body_name(frame_.type);
        if (p.to != shared_->name)
            return refuse_auth(type + " for '" + std::string(p.to) + "' reached '" + shared_->name +
                               "'");
        auto req = std::make_shared<Request>();
        err = shared_->auth.verify_seal(frame_.type, frame_.body_len, p.to, p.digest, p.cred,
                                        &req->peer.uid, &req->peer.gid);
        if (!err.empty()) return refuse_auth(type + ": " + err);
        uint32_t limit = body_limit(frame_.type, shared_->limits.script_limit);
        if (frame_.body_len > limit)
            return refuse_auth(type + " of " + std::to_string(frame_.body_len) +
                               " bytes exceeds the limit of " + std::to_string(limit));
        Admission::process().authenticated(id_);
        std::copy(p.digest.begin(), p.digest.end(), digest_.begin());
        read_body(req);
    }

    // The body grows as its bytes arrive, a chunk at a time: what a sender announces costs the
    // daemon nothing until it is sent.
    void read_body(const std::shared_ptr<Request> &req) {
        constexpr std::size_t kChunk = 1u << 20;
        std::size_t have = req->bytes.size();
        std::size_t n = std::min<std::size_t>(kChunk, frame_.body_len - have);
        req->bytes.resize(have + n);
        auto self = shared_from_this();
        asio::async_read(sock_, asio::buffer(req->bytes.data() + have, n),
                         [self, req](boost::system::error_code ec, size_t) {
                             if (ec) return self->close();
                             if (req->bytes.size() < self->frame_.body_len)
                                 return self->read_body(req);
                             self->dispatch(req);
                         });
    }

    void dispatch(const std::shared_ptr<Request> &req) {
        timer_.cancel();
        if (!matches_digest(req->bytes, digest_))
            return refuse("body does not match the digest its credential covers");
        std::string err = proto::verify_message(req->bytes, frame_.type, &req->msg);
        if (!err.empty()) return refuse(err);
        req->peer.addr = peer_addr_;
        shared_->handler(req, std::make_shared<ConnResponder>(shared_from_this()));
    }

    // A frame that is not one: logged (at most a line per interval) and the connection closed.
    void refuse(const std::string &why) {
        uint64_t held = 0;
        if (shared_->refused_log.allow(&held))
            spdlog::warn("refused frame from {}: {}{}", peer_addr_, why, not_logged(held));
        close();
    }

    // A sender that did not prove who it is, or sent what it may not: told why, then closed (it
    // may be a Drover peer with the wrong key or configuration).
    void refuse_auth(const std::string &why) {
        uint64_t held = 0;
        if (shared_->refused_log.allow(&held))
            spdlog::warn("refused {} from {}{}", why, peer_addr_, not_logged(held));
        send(make_error(DROVER_AUTH_REFUSED, "Authentication failure: " + why), true, true);
    }

    struct ConnResponder : Responder {
        explicit ConnResponder(std::shared_ptr<Connection> c) : conn(std::move(c)) {}
        ~ConnResponder() override {
            if (!done && conn) conn->close(); // a handler that never answered frees the peer
        }
        void reply(std::span<const uint8_t> message) override {
            if (done) return;
            done = true;
            conn->send(message);
        }
        void accept() override {
            if (done || accepted) return;
            accepted = true;
            flatbuffers::FlatBufferBuilder fbb(32);
            fbb.Finish(proto::CreateMessage(fbb, proto::Body::ForwardAccepted,
                                            proto::CreateForwardAccepted(fbb).Union()));
            conn->send({fbb.GetBufferPointer(), fbb.GetSize()}, false);
        }
        std::shared_ptr<Connection> conn;
        bool done = false;
        bool accepted = false;
    };

    tcp::socket sock_;
    asio::steady_timer timer_;
    std::shared_ptr<ServerShared> shared_;
    Admission::Id id_;
    std::string peer_addr_;
    std::array<uint8_t, proto::kFrameHeaderSize> header_{};
    std::string http_in_; // an HTTP request's head, while one is read
    std::array<uint8_t, proto::kMaxPreamble> preamble_{};
    proto::FrameHeader frame_;
    proto::Digest digest_{};
    std::deque<Out> out_; // frames being written, the front one on the wire
};

using TcpAcceptLoop = AcceptLoop<tcp::acceptor, tcp::socket>;

} // namespace

struct Server::Impl {
    Impl(asio::io_context &io, std::shared_ptr<ServerShared> s)
        : acceptor(io), shared(std::move(s)) {}
    tcp::acceptor acceptor;
    std::shared_ptr<ServerShared> shared;
};

Server::Server(asio::io_context &io, const std::string &bind_addr, uint16_t port,
               const Authenticator &auth, std::string name, Handler handler, ServerLimits limits)
    : impl_(std::make_shared<Impl>(io, std::make_shared<ServerShared>(auth, std::move(handler),
                                                                      std::move(name),
                                                                      std::move(limits)))) {
    boost::system::error_code ec;
    auto addr = asio::ip::make_address(bind_addr.empty() ? "0.0.0.0" : bind_addr, ec);
    if (ec) throw std::runtime_error("bad listen address '" + bind_addr + "'");
    tcp::endpoint ep(addr, port);
    impl_->acceptor.open(ep.protocol());
    impl_->acceptor.set_option(tcp::acceptor::reuse_address(true));
    impl_->acceptor.bind(ep, ec);
    if (ec)
        throw std::runtime_error("cannot listen on " + bind_addr + ":" + std::to_string(port) +
                                 ": " + ec.message());
    impl_->acceptor.listen(asio::socket_base::max_listen_connections);
    auto shared = impl_->shared;
    auto loop = std::make_shared<TcpAcceptLoop>(
        impl_->acceptor, "port " + std::to_string(this->port()),
        [](tcp::socket &s) {
            boost::system::error_code e;
            auto ep = s.remote_endpoint(e);
            return e ? std::string("?") : ep.address().to_string();
        },
        [shared](tcp::socket s, Admission::Id id) {
            auto conn = std::make_shared<Connection>(std::move(s), shared, id);
            conn->start();
            return conn->closer();
        });
    loop->run();
}

Server::~Server() {
    stop();
}

uint16_t Server::port() const {
    return impl_->acceptor.local_endpoint().port();
}

void Server::serve_http(HttpHandler handler) {
    impl_->shared->http = std::move(handler);
}

void Server::stop() {
    boost::system::error_code ec;
    impl_->acceptor.close(ec);
}

} // namespace drover::net
