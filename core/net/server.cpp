// server.cpp - Asio accept/read/write loops for the RPC server and the credential socket.
//
// A connection reads one frame, verifies it (header, FlatBuffers verifier, credential), hands the
// request to the handler and waits for its reply before reading the next frame. Anything wrong
// with a frame is logged and closes that connection only; the server keeps serving everyone else.
#include "net/server.hpp"

#include <deque>
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "net/authenticator.hpp"
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

void Responder::error(int code, const std::string &text) { reply(make_error(code, text)); }
void Responder::ok(const std::string &text) { reply(make_ok(text)); }

namespace {

constexpr auto kIdleTimeout = std::chrono::seconds(120);

class Connection : public std::enable_shared_from_this<Connection> {
  public:
    Connection(tcp::socket sock, const Authenticator &auth, const Handler &handler)
        : sock_(std::move(sock)), timer_(sock_.get_executor()), auth_(auth), handler_(handler) {
        boost::system::error_code ec;
        auto ep = sock_.remote_endpoint(ec);
        if (!ec) peer_addr_ = ep.address().to_string() + ":" + std::to_string(ep.port());
        sock_.set_option(tcp::no_delay(true), ec);
    }

    void start() { read_header(); }

    // Sends message; the connection reads its next request once the last frame is out. An
    // interim frame (ForwardAccepted) goes ahead of the reply, which may be sent before it is out.
    void send(std::span<const uint8_t> message, bool last = true) {
        if (!sock_.is_open()) return;
        std::vector<uint8_t> cred;
        try {
            // ForwardAccepted says only "alive" on a connection the sender opened: a forged one
            // could only make it wait for its deadline instead of its hop timeout. Left unsigned,
            // it costs a hop of the tree one frame, not a second signature.
            cred = last ? auth_.sign_as_self(message) : std::vector<uint8_t>{0};
        } catch (const std::exception &e) {
            spdlog::error("cannot sign reply to {}: {}", peer_addr_, e.what());
            close();
            return;
        }
        out_.push_back({proto::make_frame(message, cred), last});
        if (out_.size() == 1) write_front();
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
    };

    void write_front() {
        auto self = shared_from_this();
        asio::async_write(sock_, asio::buffer(out_.front().frame), [self](boost::system::error_code ec, size_t) {
            if (ec) return self->close();
            bool last = self->out_.front().last;
            self->out_.pop_front();
            if (!self->out_.empty()) return self->write_front();
            if (last) self->read_header();
        });
    }

    void arm_timer() {
        timer_.expires_after(kIdleTimeout);
        std::weak_ptr<Connection> weak = shared_from_this();
        timer_.async_wait([weak](boost::system::error_code ec) {
            if (ec) return;
            if (auto self = weak.lock()) self->close();
        });
    }

    void read_header() {
        arm_timer();
        auto self = shared_from_this();
        asio::async_read(sock_, asio::buffer(header_), [self](boost::system::error_code ec, size_t) {
            if (ec) return self->close();
            uint32_t len = 0;
            std::string err = proto::decode_frame_header(self->header_.data(), &len);
            if (!err.empty()) return self->refuse(err);
            self->read_body(len);
        });
    }

    void read_body(uint32_t len) {
        auto req = std::make_shared<Request>();
        req->bytes.resize(len);
        auto self = shared_from_this();
        asio::async_read(sock_, asio::buffer(req->bytes),
                         [self, req](boost::system::error_code ec, size_t) {
                             if (ec) return self->close();
                             self->dispatch(req);
                         });
    }

    void dispatch(const std::shared_ptr<Request> &req) {
        timer_.cancel();
        proto::Verified v;
        std::string err = proto::verify_frame_body(req->bytes, &v);
        if (!err.empty()) return refuse(err);
        err = auth_.verify(v.cred, v.body, &req->peer.uid, &req->peer.gid);
        if (!err.empty()) {
            spdlog::warn("refused {} from {}: {}", proto::body_name(v.message->body_type()),
                         peer_addr_, err);
            // Tell the sender why, then close: it may not be a Drover peer at all.
            auto msg = make_error(DROVER_AUTH_REFUSED, "Authentication failure: " + err);
            send(msg);
            return;
        }
        req->msg = v.message;
        req->peer.addr = peer_addr_;
        handler_(req, std::make_shared<ConnResponder>(shared_from_this()));
    }

    void refuse(const std::string &why) {
        spdlog::warn("refused frame from {}: {}", peer_addr_, why);
        close();
    }

    struct ConnResponder : Responder {
        explicit ConnResponder(std::shared_ptr<Connection> c) : conn(std::move(c)) {}
        ~ConnResponder() override {
            if (!done && conn) conn->close();  // a handler that never answered frees the peer
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

    static constexpr int DROVER_AUTH_REFUSED = -1;

    tcp::socket sock_;
    asio::steady_timer timer_;
    const Authenticator &auth_;
    const Handler &handler_;
    std::string peer_addr_;
    std::array<uint8_t, proto::kFrameHeaderSize> header_{};
    std::deque<Out> out_;  // frames being written, the front one on the wire
};

}  // namespace

struct Server::Impl : std::enable_shared_from_this<Server::Impl> {
    Impl(asio::io_context &io, const Authenticator &a, Handler h)
        : acceptor(io), auth(a), handler(std::move(h)) {}

    void accept() {
        auto self = shared_from_this();
        acceptor.async_accept([self](boost::system::error_code ec, tcp::socket sock) {
            if (ec == asio::error::operation_aborted || !self->acceptor.is_open()) return;
            if (!ec) std::make_shared<Connection>(std::move(sock), self->auth, self->handler)->start();
            self->accept();
        });
    }

    tcp::acceptor acceptor;
    const Authenticator &auth;
    Handler handler;
};

Server::Server(asio::io_context &io, const std::string &bind_addr, uint16_t port,
               const Authenticator &auth, Handler handler)
    : impl_(std::make_shared<Impl>(io, auth, std::move(handler))) {
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
    impl_->accept();
}

Server::~Server() { stop(); }

uint16_t Server::port() const { return impl_->acceptor.local_endpoint().port(); }

void Server::stop() {
    boost::system::error_code ec;
    impl_->acceptor.close(ec);
}

// ---- credential socket ----

namespace {

class AuthConn : public std::enable_shared_from_this<AuthConn> {
  public:
    AuthConn(asio::local::stream_protocol::socket s, const Authenticator &a)
        : sock_(std::move(s)), auth_(a) {}

    void start() {
        ucred cred{};
        socklen_t len = sizeof cred;
        if (getsockopt(sock_.native_handle(), SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return;
        uid_ = cred.uid;
        gid_ = cred.gid;
        auto self = shared_from_this();
        asio::async_read(sock_, asio::buffer(len_, 4), [self](boost::system::error_code ec, size_t) {
            if (ec) return;
            uint32_t n;
            std::memcpy(&n, self->len_, 4);
            if (n == 0 || n > proto::kMaxFrameBody) return;
            self->body_.resize(n);
            asio::async_read(self->sock_, asio::buffer(self->body_),
                             [self](boost::system::error_code ec, size_t) {
                                 if (!ec) self->answer();
                             });
        });
    }

  private:
    void answer() {
        std::vector<uint8_t> cred;
        std::string err;
        try {
            cred = auth_.sign(body_, uid_, gid_);
        } catch (const std::exception &e) {
            err = e.what();
        }
        out_.clear();
        auto put = [this](uint32_t v) {
            uint8_t b[4];
            std::memcpy(b, &v, 4);
            out_.insert(out_.end(), b, b + 4);
        };
        if (err.empty()) {
            put(uint32_t(cred.size()));
            out_.insert(out_.end(), cred.begin(), cred.end());
        } else {
            put(0xffffffffu);
            put(uint32_t(err.size()));
            out_.insert(out_.end(), err.begin(), err.end());
        }
        auto self = shared_from_this();
        asio::async_write(sock_, asio::buffer(out_), [self](boost::system::error_code, size_t) {});
    }

    asio::local::stream_protocol::socket sock_;
    const Authenticator &auth_;
    uint32_t uid_ = 0, gid_ = 0;
    uint8_t len_[4]{};
    std::vector<uint8_t> body_, out_;
};

bool socket_is_live(const std::string &path) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
    bool live = ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0;
    ::close(fd);
    return live;
}

}  // namespace

struct AuthSocketServer::Impl : std::enable_shared_from_this<AuthSocketServer::Impl> {
    Impl(asio::io_context &io, const Authenticator &a) : acceptor(io), auth(a) {}
    void accept() {
        auto self = shared_from_this();
        acceptor.async_accept(
            [self](boost::system::error_code ec, asio::local::stream_protocol::socket s) {
                if (ec == asio::error::operation_aborted || !self->acceptor.is_open()) return;
                if (!ec) std::make_shared<AuthConn>(std::move(s), self->auth)->start();
                self->accept();
            });
    }
    asio::local::stream_protocol::acceptor acceptor;
    const Authenticator &auth;
    std::string path;
    ino_t inode = 0;  // the socket file we made; another daemon's replacement is not ours
};

AuthSocketServer::AuthSocketServer(asio::io_context &io, const std::string &path,
                                   const Authenticator &auth)
    : impl_(std::make_shared<Impl>(io, auth)) {
    if (socket_is_live(path))
        throw std::runtime_error("credential socket " + path + " is served by another daemon");
    ::unlink(path.c_str());
    if (auto slash = path.find_last_of('/'); slash != std::string::npos && slash > 0)
        ::mkdir(path.substr(0, slash).c_str(), 0755);  // /run/drover on a fresh machine
    asio::local::stream_protocol::endpoint ep(path);
    boost::system::error_code ec;
    impl_->acceptor.open(ep.protocol());
    impl_->acceptor.bind(ep, ec);
    if (ec) throw std::runtime_error("cannot bind credential socket " + path + ": " + ec.message());
    ::chmod(path.c_str(), 0666);  // every local user may ask; the kernel tells us who they are
    impl_->acceptor.listen();
    impl_->path = path;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) impl_->inode = st.st_ino;
    impl_->accept();
}

AuthSocketServer::~AuthSocketServer() {
    boost::system::error_code ec;
    impl_->acceptor.close(ec);
    struct stat st {};
    if (::stat(impl_->path.c_str(), &st) == 0 && st.st_ino == impl_->inode) ::unlink(impl_->path.c_str());
}

struct AuthSocketKeeper::Impl : std::enable_shared_from_this<AuthSocketKeeper::Impl> {
    Impl(asio::io_context &io_, std::string p, const Authenticator &a)
        : io(io_), timer(io_), path(std::move(p)), auth(a) {}
    void attempt() {
        if (!server) {
            try {
                server = std::make_unique<AuthSocketServer>(io, path, auth);
                spdlog::info("serving the credential socket {}", path);
            } catch (const std::exception &e) {
                if (!told) spdlog::info("credential socket not served here: {}", e.what());
                told = true;
            }
        }
        if (server) return;
        std::weak_ptr<Impl> weak = shared_from_this();
        timer.expires_after(std::chrono::seconds(2));
        timer.async_wait([weak](boost::system::error_code ec) {
            if (auto self = weak.lock(); self && !ec) self->attempt();
        });
    }
    asio::io_context &io;
    asio::steady_timer timer;
    std::string path;
    const Authenticator &auth;
    std::unique_ptr<AuthSocketServer> server;
    bool told = false;
};

AuthSocketKeeper::AuthSocketKeeper(asio::io_context &io, std::string path, const Authenticator &auth)
    : impl_(std::make_shared<Impl>(io, std::move(path), auth)) {
    impl_->attempt();
}

AuthSocketKeeper::~AuthSocketKeeper() {
    impl_->timer.cancel();
    impl_->server.reset();
}

bool AuthSocketKeeper::serving() const { return impl_->server != nullptr; }

}  // namespace drover::net
