// auth_socket_server.cpp - the credential socket: a local user sends a Message and its receiver's
// name and gets back the message's seal (digest and credential) as that user, whom the kernel names
// (SO_PEERCRED). Protocol: auth_socket_client.cpp.
//
// The message is hashed as it arrives and not kept, so a connection costs a fixed 64 KiB however
// large its message; each connection goes through the process's admission like a TCP one, and a
// request must arrive whole within MessageTimeout.
#include <cstring>
#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <openssl/evp.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "net/accept_loop.hpp"
#include "net/authenticator.hpp"
#include "net/server.hpp"

namespace asio = boost::asio;
using local_socket = asio::local::stream_protocol::socket;

namespace drover::net {

namespace {

class AuthConn : public std::enable_shared_from_this<AuthConn> {
  public:
    AuthConn(local_socket s, const Authenticator &a, std::chrono::milliseconds timeout,
             Admission::Id id)
        : sock_(std::move(s)), timer_(sock_.get_executor()), auth_(a), timeout_(timeout), id_(id),
          sha_(EVP_MD_CTX_new()) {}
    ~AuthConn() {
        EVP_MD_CTX_free(sha_);
        Admission::process().close(id_);
    }

    void start(uint32_t uid, uint32_t gid) {
        uid_ = uid;
        gid_ = gid;
        timer_.expires_after(timeout_);
        timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
            if (auto self = weak.lock(); self && !ec) self->close();
        });
        read(6, [](AuthConn &c) { c.got_head(); });
    }

    std::function<void()> closer() {
        return [weak = weak_from_this(), ex = sock_.get_executor()] {
            asio::post(ex, [weak] {
                if (auto self = weak.lock()) self->close();
            });
        };
    }

  private:
    template <class Next>
    void read(std::size_t n, Next next) {
        asio::async_read(sock_, asio::buffer(buf_.data(), n),
                         [self = shared_from_this(), next](boost::system::error_code ec, size_t) {
                             if (ec) return self->close();
                             next(*self);
                         });
    }

    void got_head() {
        uint32_t magic;
        std::memcpy(&magic, buf_.data(), 4);
        if (magic != kAuthSocketMagic)
            return fail("request in an unknown format (an older command?)");
        type_ = proto::Body(buf_[4]);
        std::size_t to_len = buf_[5];
        read(to_len + 4, [to_len](AuthConn &c) {
            c.to_.assign(reinterpret_cast<const char *>(c.buf_.data()), to_len);
            std::memcpy(&c.left_, c.buf_.data() + to_len, 4);
            if (c.left_ == 0 || c.left_ > proto::kMaxFrameBody)
                return c.fail("message size out of range");
            c.body_len_ = c.left_;
            EVP_DigestInit_ex(c.sha_, EVP_sha256(), nullptr);
            c.hash_more();
        });
    }

    void hash_more() {
        std::size_t n = std::min<std::size_t>(left_, buf_.size());
        read(n, [n](AuthConn &c) {
            EVP_DigestUpdate(c.sha_, c.buf_.data(), n);
            c.left_ -= uint32_t(n);
            if (c.left_ > 0) return c.hash_more();
            Seal seal;
            EVP_DigestFinal_ex(c.sha_, seal.digest.data(), nullptr);
            c.answer(std::move(seal));
        });
    }

    void answer(Seal seal) {
        Admission::process().authenticated(id_); // its whole request is in
        try {
            seal.cred = auth_.sign_seal(type_, body_len_, to_, seal.digest, uid_, gid_);
        } catch (const std::exception &e) {
            return fail(e.what());
        }
        put(uint32_t(seal.cred.size()));
        out_.insert(out_.end(), seal.digest.begin(), seal.digest.end());
        out_.insert(out_.end(), seal.cred.begin(), seal.cred.end());
        write();
    }

    void fail(const std::string &why) {
        put(0xffffffffu);
        put(uint32_t(why.size()));
        out_.insert(out_.end(), why.begin(), why.end());
        write();
    }

    void put(uint32_t v) {
        uint8_t b[4];
        std::memcpy(b, &v, 4);
        out_.insert(out_.end(), b, b + 4);
    }

    void write() {
        asio::async_write(
            sock_, asio::buffer(out_),
            [self = shared_from_this()](boost::system::error_code, size_t) { self->close(); });
    }

    void close() {
        boost::system::error_code ec;
        timer_.cancel();
        sock_.close(ec);
    }

    local_socket sock_;
    asio::steady_timer timer_;
    const Authenticator &auth_;
    std::chrono::milliseconds timeout_;
    Admission::Id id_;
    EVP_MD_CTX *sha_;
    uint32_t uid_ = 0, gid_ = 0;
    proto::Body type_ = proto::Body::NONE;
    std::string to_;
    uint32_t left_ = 0, body_len_ = 0;
    std::array<uint8_t, 64 * 1024> buf_{};
    std::vector<uint8_t> out_;
};

// Whether a daemon serves path. A connection refused (or no file) means nobody does; any other
// failure — a full backlog under a flood above all — means a live daemon is busy, and its socket
// must not be taken from it.
bool socket_is_live(const std::string &path) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
    bool live = ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0 ||
                (errno != ECONNREFUSED && errno != ENOENT);
    ::close(fd);
    return live;
}

using UnixAcceptLoop = AcceptLoop<asio::local::stream_protocol::acceptor, local_socket>;

// The uid and gid the kernel gives for the peer of a local socket; false when it cannot.
bool peer_cred(local_socket &s, uint32_t *uid, uint32_t *gid) {
    ucred cred{};
    socklen_t len = sizeof cred;
    if (getsockopt(s.native_handle(), SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return false;
    *uid = cred.uid;
    *gid = cred.gid;
    return true;
}

} // namespace

struct AuthSocketServer::Impl {
    explicit Impl(asio::io_context &io) : acceptor(io) {}
    asio::local::stream_protocol::acceptor acceptor;
    std::string path;
    ino_t inode = 0; // the socket file we made; another daemon's replacement is not ours
};

AuthSocketServer::AuthSocketServer(asio::io_context &io, const std::string &path,
                                   const Authenticator &auth, std::chrono::milliseconds timeout)
    : impl_(std::make_shared<Impl>(io)) {
    if (socket_is_live(path))
        throw std::runtime_error("credential socket " + path + " is served by another daemon");
    ::unlink(path.c_str());
    if (auto slash = path.find_last_of('/'); slash != std::string::npos && slash > 0)
        ::mkdir(path.substr(0, slash).c_str(), 0755); // /run/drover on a fresh machine
    asio::local::stream_protocol::endpoint ep(path);
    boost::system::error_code ec;
    impl_->acceptor.open(ep.protocol());
    impl_->acceptor.bind(ep, ec);
    if (ec) throw std::runtime_error("cannot bind credential socket " + path + ": " + ec.message());
    ::chmod(path.c_str(), 0666); // every local user may ask; the kernel tells us who they are
    impl_->acceptor.listen(asio::socket_base::max_listen_connections);
    impl_->path = path;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) impl_->inode = st.st_ino;
    const Authenticator *a = &auth;
    auto loop = std::make_shared<UnixAcceptLoop>(
        impl_->acceptor, "credential socket " + path,
        [](local_socket &s) {
            uint32_t uid = 0, gid = 0;
            return peer_cred(s, &uid, &gid) ? "uid " + std::to_string(uid) : std::string("uid ?");
        },
        [a, timeout](local_socket s, Admission::Id id) -> std::function<void()> {
            uint32_t uid = 0, gid = 0;
            if (!peer_cred(s, &uid, &gid)) {
                Admission::process().close(id);
                return [] {};
            }
            auto conn = std::make_shared<AuthConn>(std::move(s), *a, timeout, id);
            conn->start(uid, gid);
            return conn->closer();
        });
    loop->run();
}

AuthSocketServer::~AuthSocketServer() {
    boost::system::error_code ec;
    impl_->acceptor.close(ec);
    struct stat st {};
    if (::stat(impl_->path.c_str(), &st) == 0 && st.st_ino == impl_->inode)
        ::unlink(impl_->path.c_str());
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

AuthSocketKeeper::AuthSocketKeeper(asio::io_context &io, std::string path,
                                   const Authenticator &auth)
    : impl_(std::make_shared<Impl>(io, std::move(path), auth)) {
    impl_->attempt();
}

AuthSocketKeeper::~AuthSocketKeeper() {
    impl_->timer.cancel();
    impl_->server.reset();
}

bool AuthSocketKeeper::serving() const {
    return impl_->server != nullptr;
}

} // namespace drover::net
