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
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "proto/frame.hpp"

namespace drover {
struct Config;
}

namespace drover::net {

// A transport failure: could not connect, send or read, or the reply was malformed.
class NetError : public Error {
  public:
    explicit NetError(const std::string &what) : Error(DROVER_EIO, what) {}
};

// The local credential socket did not answer (no daemon serves it, or one is taking it over).
class SocketUnreachable : public NetError {
  public:
    using NetError::NetError;
};

// The server answered with an ErrorResponse: its code and message.
class RpcError : public Error {
  public:
    using Error::Error;
};

// No connection could be made (refused, unreachable, timed out): nothing was sent.
class ConnectFailed : public NetError {
  public:
    using NetError::NetError;
};

// The ErrorResponse code of a controller that is not in control (a standby backup, or one handing
// control over): the caller tries the next SlurmctldHost.
inline constexpr int kNotInControl = -1000;
// The ErrorResponse code of a request whose token (AuthAltTypes=auth/jwt) the controller refused:
// drover-restd answers its client 401.
inline constexpr int kTokenRefused = -1001;

// What a sender puts in a frame's preamble for a finished Message: the body's digest and a
// credential over the seal (proto::seal_input), which names the receiver.
struct Seal {
    proto::Digest digest{};
    std::vector<uint8_t> cred;
};

// Seals a finished Message for the daemon named to (a NodeName, a SlurmctldHost name; "" for a
// reply, which travels on the connection its receiver opened).
using Signer = std::function<Seal(std::span<const uint8_t> message, std::string_view to)>;

// A frame for message, sealed for to.
std::vector<uint8_t> sealed_frame(std::span<const uint8_t> message, std::string_view to,
                                  const Signer &sign);

// A reply: owns its bytes (the Message); msg points into them and was verified.
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

// Sends one message to the daemon named to at host:port and waits up to timeout_ms for its reply.
Reply call(const std::string &host, uint16_t port, const std::string &to,
           std::span<const uint8_t> message, const Signer &sign, int timeout_ms = 30000);

// Daemons check who sent every reply they read (commands cannot: they hold no key). Returns an
// empty string, or why the reply is refused. Set once at start, before any call; unset, replies are
// not checked. ForwardAccepted, which carries nothing, is not checked.
using ReplyCheck =
    std::function<std::string(const proto::FrameHeader &header, const proto::Preamble &preamble,
                              std::span<const uint8_t> body)>;
void set_reply_check(ReplyCheck check);
// Takes a reply read whole (its body in reply.bytes): applies the reply check to it, verifies its
// message and points reply.msg into it. Returns an empty string, or the error naming from.
std::string accept_reply(const proto::FrameHeader &header, std::span<const uint8_t> preamble,
                         Reply &reply, const std::string &from);

struct Deadline;
// Reads one frame from a blocking socket: header, preamble (not checked: the reader opened the
// connection), body of at most max_body bytes, verified. Throws NetError naming from.
Reply read_frame(int fd, const Deadline &deadline, const std::string &from,
                 uint32_t max_body = proto::kMaxFrameBody);

// Sends to the controller in control, trying each SlurmctldHost in order (starting with the one
// that answered last in this process). A standby refuses with kNotInControl; while one does and
// none is in control, waits (when wait_for_takeover) up to SlurmctldTimeout + 10 s for a takeover.
// When wait_for_takeover and no controller takes the connection at all, tries again once a second
// for MessageTimeout seconds, so that a command rides through a controller restart as Slurm's do.
// Throws NetError("Unable to contact slurm controller (connect failure)") when none answers.
Reply call_controller(const Config &conf, std::span<const uint8_t> message, const Signer &sign,
                      int timeout_ms = 30000, bool wait_for_takeover = true);

// The signer for commands: asks the credential socket named by AuthInfo socket= (default
// kDefaultAuthSocket) to sign for the calling user.
Signer socket_signer(const Config &conf);

inline constexpr const char *kDefaultAuthSocket = "/run/drover/auth.socket";
// The first word of a request on the credential socket ("DRVS"): an older request is refused.
inline constexpr uint32_t kAuthSocketMagic = 0x44525653;
std::string auth_socket_path(const Config &conf);

// Asks the credential socket at path to seal message for to as the calling user.
Seal sign_via_socket(const std::string &path, std::span<const uint8_t> message,
                     std::string_view to);

} // namespace drover::net
