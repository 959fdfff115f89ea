// http_server.cpp - Beast sessions over TCP and UNIX sockets.
#include "restd/http_server.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <sys/stat.h>

#include <atomic>
#include <optional>
#include <stdexcept>

#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>

namespace drover::restd {

namespace asio = boost::asio;
namespace beast = boost::beast;

struct HttpServer::Shared {
    Handler handler;
    HttpLimits limits;
    std::atomic<std::size_t> open{0};
    std::unique_ptr<asio::ssl::context> tls; // set: TCP listeners speak TLS only
};

namespace {

HttpResponse plain(http::status status, const std::string &text, unsigned version) {
    HttpResponse r{status, version};
    r.set(http::field::content_type, "text/plain");
    r.body() = text + "\n";
    r.prepare_payload();
    return r;
}

template <class Stream>
struct IsTls : std::false_type {};
template <class Next>
struct IsTls<beast::ssl_stream<Next>> : std::true_type {};

// One connection: read a request, hand it over, write the answer, and again while kept alive.
// Stream: a TCP or UNIX-socket stream, or TLS over TCP (which shakes hands first).
template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
  public:
    template <class... Args>
    Session(std::shared_ptr<HttpServer::Shared> shared, Client client, Args &&...args)
        : stream_(std::forward<Args>(args)...), shared_(std::move(shared)),
          client_(std::move(client)) {
        ++shared_->open;
    }
    ~Session() { --shared_->open; }

    void start() {
        if constexpr (IsTls<Stream>::value) {
            beast::get_lowest_layer(stream_).expires_after(shared_->limits.idle);
            stream_.async_handshake(asio::ssl::stream_base::server,
                                    [self = this->shared_from_this()](beast::error_code ec) {
                                        if (ec) return self->close();
                                        self->read();
                                    });
        } else {
            read();
        }
    }

  private:
    void read() {
        parser_.emplace();
        parser_->body_limit(shared_->limits.body_bytes);
        beast::get_lowest_layer(stream_).expires_after(shared_->limits.idle);
        http::async_read(stream_, buffer_, *parser_,
                         [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                             self->on_read(ec);
                         });
    }

    void on_read(beast::error_code ec) {
        if (ec == http::error::body_limit)
            return write(
                plain(http::status::payload_too_large,
                      "request body over " + std::to_string(shared_->limits.body_bytes) + " bytes",
                      11),
                false);
        if (ec) return close();
        HttpRequest req = parser_->release();
        bool keep = req.keep_alive();
        unsigned version = req.version();
        auto self = this->shared_from_this();
        auto ex = stream_.get_executor();
        shared_->handler(std::move(req), client_, [self, ex, keep, version](HttpResponse resp) {
            asio::post(ex, [self, keep, version, resp = std::move(resp)]() mutable {
                resp.version(version);
                resp.keep_alive(keep);
                self->write(std::move(resp), keep);
            });
        });
    }

    void write(HttpResponse resp, bool keep) {
        auto msg = std::make_shared<HttpResponse>(std::move(resp));
        beast::get_lowest_layer(stream_).expires_after(shared_->limits.idle);
        http::async_write(
            stream_, *msg,
            [self = this->shared_from_this(), msg, keep](beast::error_code ec, std::size_t) {
                if (ec || !keep) return self->close();
                self->read();
            });
    }

    void close() {
        beast::error_code ec;
        auto &lowest = beast::get_lowest_layer(stream_);
        lowest.socket().shutdown(std::remove_reference_t<decltype(lowest.socket())>::shutdown_send,
                                 ec);
        lowest.close();
    }

    Stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::shared_ptr<HttpServer::Shared> shared_;
    Client client_;
};

// The peer of a UNIX socket as the kernel has it.
Client local_client(asio::local::stream_protocol::socket &s) {
    Client c;
    c.local = true;
    c.addr = "unix";
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(s.native_handle(), SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
        c.uid = cred.uid;
        c.gid = cred.gid;
    }
    return c;
}

} // namespace

HttpServer::HttpServer(asio::io_context &io, Handler handler, HttpLimits limits)
    : io_(io), shared_(std::make_shared<Shared>()) {
    shared_->handler = std::move(handler);
    shared_->limits = limits;
}

HttpServer::~HttpServer() = default;

void HttpServer::use_tls(const std::string &cert, const std::string &key) {
    auto ctx = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
    ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                     asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                     asio::ssl::context::no_tlsv1_1);
    try {
        ctx->use_certificate_chain_file(cert);
        ctx->use_private_key_file(key, asio::ssl::context::pem);
    } catch (const boost::system::system_error &e) {
        throw std::runtime_error("TLS certificate " + cert + " or key " + key + ": " + e.what());
    }
    shared_->tls = std::move(ctx);
}

void HttpServer::listen(const std::string &where) {
    if (where.rfind("unix:", 0) == 0) {
        std::string path = where.substr(5);
        ::unlink(path.c_str());
        auto a = std::make_shared<asio::local::stream_protocol::acceptor>(
            io_, asio::local::stream_protocol::endpoint(path));
        ::chmod(path.c_str(), 0777); // who may connect is what the socket tells, not its mode
        return accept_local(a);
    }
    std::size_t colon = where.rfind(':');
    if (colon == std::string::npos)
        throw std::runtime_error("listen address " + where + ": no port");
    std::string host = where.substr(0, colon);
    if (host.empty()) host = "0.0.0.0";
    if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
    unsigned long port = std::stoul(where.substr(colon + 1));
    if (port > 65535) throw std::runtime_error("listen address " + where + ": bad port");
    asio::ip::tcp::endpoint ep(asio::ip::make_address(host), uint16_t(port));
    auto a = std::make_shared<asio::ip::tcp::acceptor>(io_, ep, true);
    if (!port_) port_ = a->local_endpoint().port();
    accept_tcp(a);
}

void HttpServer::accept_tcp(std::shared_ptr<asio::ip::tcp::acceptor> a) {
    a->async_accept([this, a](beast::error_code ec, asio::ip::tcp::socket s) {
        if (ec == asio::error::operation_aborted) return;
        if (!ec && shared_->open < shared_->limits.connections) {
            Client c;
            beast::error_code e2;
            auto ep = s.remote_endpoint(e2);
            if (!e2) c.addr = ep.address().to_string() + ":" + std::to_string(ep.port());
            if (shared_->tls)
                std::make_shared<Session<beast::ssl_stream<beast::tcp_stream>>>(
                    shared_, c, std::move(s), *shared_->tls)
                    ->start();
            else
                std::make_shared<Session<beast::tcp_stream>>(shared_, c, std::move(s))->start();
        }
        accept_tcp(a);
    });
}

void HttpServer::accept_local(std::shared_ptr<asio::local::stream_protocol::acceptor> a) {
    a->async_accept([this, a](beast::error_code ec, asio::local::stream_protocol::socket s) {
        if (ec == asio::error::operation_aborted) return;
        if (!ec && shared_->open < shared_->limits.connections) {
            Client c = local_client(s);
            std::make_shared<Session<beast::basic_stream<asio::local::stream_protocol>>>(
                shared_, c, std::move(s))
                ->start();
        }
        accept_local(a);
    });
}

} // namespace drover::restd
