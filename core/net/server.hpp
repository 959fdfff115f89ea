// server.hpp - the daemons' RPC server: framed, verified, authenticated requests on TCP, and the
// local credential socket for commands.
//
// Boost.Asio stays inside server.cpp: callers only name boost::asio::io_context.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "net/http_get.hpp"
#include "proto/message_generated.h"

namespace boost::asio {
class io_context;
}

namespace drover {
struct Config;
}

namespace drover::net {

class Authenticator;

// Who sent a request, as its verified credential says.
struct Peer {
    uint32_t uid = 0;
    uint32_t gid = 0;
    std::string addr; // "127.0.0.1:40122"
};

// A verified request. Owns its bytes; msg points into them.
struct Request {
    std::vector<uint8_t> bytes;
    const proto::Message *msg = nullptr;
    Peer peer;
    // It came inside a ForwardRequest down the fan-out tree (peer is the forward's origin).
    bool forwarded = false;
};

// Answers one request exactly once, now or later (from the io_context's thread).
class Responder {
  public:
    virtual ~Responder() = default;
    // Sends a finished Message buffer as the reply.
    virtual void reply(std::span<const uint8_t> message) = 0;
    // Tells the sender at once that the request arrived and is being worked on (ForwardAccepted),
    // ahead of the reply: the fan-out tree's hop timeout waits for this, not for the reply.
    virtual void accept() {}
    // Sends an ErrorResponse.
    void error(int code, const std::string &text);
    void ok(const std::string &text = {});
};
using ResponderPtr = std::shared_ptr<Responder>;
using Handler = std::function<void(std::shared_ptr<Request>, ResponderPtr)>;

// The largest body a request of this type may have (replies are read by clients, not here):
// those that carry a batch script script_limit, updates 64 MiB, node lists and layouts
// proto::kMaxFrameBody, any other 1 MiB.
uint32_t body_limit(proto::Body type, uint32_t script_limit);

struct ServerLimits {
    // A frame must arrive whole within this from the connection's accept (or its last reply):
    // MessageTimeout.
    std::chrono::milliseconds message_timeout{10000};
    uint32_t script_limit = 64u << 20; // see body_limit
};

// A daemon's limits from its configuration: MessageTimeout, and requests that carry a batch script
// up to SchedulerParameters=max_script_size with 16 MiB for the rest (environment, options).
ServerLimits server_limits(const Config &conf);

class Server {
  public:
    // Listens on bind_addr:port (port 0 picks one) as the daemon named name: a frame sealed for
    // another receiver is refused. Throws std::runtime_error when it cannot listen.
    Server(boost::asio::io_context &io, const std::string &bind_addr, uint16_t port,
           const Authenticator &auth, std::string name, Handler handler, ServerLimits limits = {});
    ~Server();
    uint16_t port() const;
    // Answers an HTTP GET on the same port with handler (set before the io_context runs); without
    // one, such a connection is a bad frame like any other.
    void serve_http(HttpHandler handler);
    // Stops accepting; open connections finish their current request.
    void stop();

  private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

// The Unix socket where commands that cannot read the auth key get a credential for their uid.
class AuthSocketServer {
  public:
    // Binds path (replacing a stale socket file; refusing when a live daemon answers there, or
    // when the socket is busy: a daemon whose backlog is full is alive). A request must arrive
    // whole within message_timeout.
    AuthSocketServer(boost::asio::io_context &io, const std::string &path,
                     const Authenticator &auth,
                     std::chrono::milliseconds message_timeout = std::chrono::milliseconds(10000));
    ~AuthSocketServer();

  private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

// Keeps the credential socket served on this host: serves it when nobody does, and checks every
// two seconds, so that when the daemon that served it stops another takes over.
class AuthSocketKeeper {
  public:
    AuthSocketKeeper(boost::asio::io_context &io, std::string path, const Authenticator &auth);
    ~AuthSocketKeeper();
    bool serving() const;

  private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

// Builds an ErrorResponse / OkResponse message.
std::vector<uint8_t> make_error(int code, const std::string &text);
std::vector<uint8_t> make_ok(const std::string &text = {});

} // namespace drover::net
