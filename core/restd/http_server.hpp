// http_server.hpp - drover-restd's HTTP/1.1 listener (Boost.Beast): TCP and UNIX-socket
// listeners (TCP with TLS when given a certificate), one request at a time per connection
// (keep-alive), a deadline for each read and write so slow or idle clients go, and a body limit
// answered 413.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <boost/beast/http.hpp>

namespace drover::restd {

namespace http = boost::beast::http;
using HttpRequest = http::request<http::string_body>;
using HttpResponse = http::response<http::string_body>;

// Who is at the other end: on a UNIX socket the kernel says (SO_PEERCRED).
struct Client {
    bool local = false; // a UNIX socket
    uint32_t uid = 0xffffffff, gid = 0xffffffff;
    std::string addr;
};

// Answers one request; reply may be called later (after a call to the controller), from any
// thread, exactly once.
using Reply = std::function<void(HttpResponse)>;
using Handler = std::function<void(HttpRequest, const Client &, Reply)>;

struct HttpLimits {
    std::size_t body_bytes = 1u << 20; // larger bodies get 413
    std::chrono::seconds idle{30};     // a request must arrive whole within this
    std::size_t connections = 1024;    // more wait in the backlog
};

class HttpServer {
  public:
    HttpServer(boost::asio::io_context &io, Handler handler, HttpLimits limits = {});
    ~HttpServer();
    // TCP listeners speak HTTPS with this certificate chain and key (PEM files); before listen.
    // Throws std::runtime_error naming the file that cannot be used.
    void use_tls(const std::string &cert, const std::string &key);
    // "HOST:PORT", ":PORT" (every address) or "unix:/path". Throws std::runtime_error.
    void listen(const std::string &where);
    // The TCP port of the first TCP listener (for listen("127.0.0.1:0")).
    uint16_t port() const { return port_; }

    struct Shared;

  private:
    void accept_tcp(std::shared_ptr<boost::asio::ip::tcp::acceptor> a);
    void accept_local(std::shared_ptr<boost::asio::local::stream_protocol::acceptor> a);
    boost::asio::io_context &io_;
    std::shared_ptr<Shared> shared_;
    uint16_t port_ = 0;
};

} // namespace drover::restd
