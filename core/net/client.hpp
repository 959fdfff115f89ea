// client.hpp - blocking request/reply over one TCP connection, for the commands and daemons.
//
// Plain POSIX sockets: the command binary must start and exit in well under a millisecond of its
// own CPU, so it links neither Boost.Asio nor a crypto library. Commands get their credential
// from the local daemon's credential socket (see auth_socket.hpp); daemons sign with their own
// auth plugin through a Signer.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "proto/message_generated.h"

namespace drover {
struct Config;
}

namespace drover::net {

// A transport failure: could not connect, send or read, or the reply was malformed.
class NetError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The local credential socket did not answer (no daemon serves it, or one is taking it over).
class SocketUnreachable : public NetError {
  public:
    using NetError::NetError;
};

// The server answered with an ErrorResponse.
class RpcError : public std::runtime_error {
  public:
    RpcError(int code, const std::string &msg) : std::runtime_error(msg), code_(code) {}
    int code() const { return code_; }

  private:
    int code_;
};

// The ErrorResponse code of a controller that is not in control (a standby backup, or one handing
// control over): the caller tries the next SlurmctldHost.
inline constexpr int kNotInControl = -1000;

// Makes a credential for a finished Message buffer.
using Signer = std::function<std::vector<uint8_t>(std::span<const uint8_t> message)>;

// A reply: owns its bytes; msg points into them and was verified.
struct Reply {
    std::vector<uint8_t> bytes;
    const proto::Message *msg = nullptr;

    // The body as T, or throws RpcError for an ErrorResponse and NetError for another type.
    template <class T>
    const T *as() const {
        if (auto *e = msg->body_as_ErrorResponse())
            throw RpcError(e->code(), e->message() ? e->message()->str() : "error");
        auto *t = msg->body_as<T>();
        if (!t) throw NetError("unexpected reply type");
        return t;
    }
};

// Sends one message to host:port and waits up to timeout_ms for its reply.
Reply call(const std::string &host, uint16_t port, std::span<const uint8_t> message,
           const Signer &sign, int timeout_ms = 30000);

// Sends to the controller in control, trying each SlurmctldHost in order (starting with the one
// that answered last in this process). A standby refuses with kNotInControl; while one does and
// none is in control, waits (when wait_for_takeover) up to SlurmctldTimeout + 10 s for a takeover.
// Throws NetError("Unable to contact slurm controller (connect failure)") when none answers.
Reply call_controller(const Config &conf, std::span<const uint8_t> message, const Signer &sign,
                      int timeout_ms = 30000, bool wait_for_takeover = true);

// The signer for commands: asks the credential socket named by AuthInfo socket= (default
// kDefaultAuthSocket) to sign for the calling user.
Signer socket_signer(const Config &conf);

inline constexpr const char *kDefaultAuthSocket = "/run/drover/auth.socket";
std::string auth_socket_path(const Config &conf);

// Asks the credential socket at path to sign message for the calling user.
std::vector<uint8_t> sign_via_socket(const std::string &path, std::span<const uint8_t> message);

}  // namespace drover::net
