// async_call.hpp - one request and its reply on the daemon's event loop, without a thread.
//
// net::call blocks its thread until the reply comes; a daemon forwarding down the fan-out tree
// has many calls out at once (and an emulating droverd, hops of every level of the tree), so a
// thread each would mean thousands of threads. async_call connects, writes and reads with
// non-blocking sockets on the loop, and one timer bounds the whole exchange.
//
// Boost.Asio stays inside async_call.cpp: callers only name boost::asio::io_context.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "net/client.hpp"

namespace boost::asio {
class io_context;
}

namespace drover::net {

// error is empty on success; reply is then set.
using CallDone = std::function<void(const std::string &error, std::shared_ptr<Reply> reply)>;

// Sends message (a finished Message, sealed here with sign for the daemon named to) to host:port
// and reads the reply,
// giving up after timeout_ms from now. done runs exactly once, on io's thread, never before
// async_call returns. host is an IP address (used as it is) or a name (resolved off the loop by
// Asio's resolver).
void async_call(boost::asio::io_context &io, const std::string &host, uint16_t port,
                const std::string &to, std::vector<uint8_t> message, const Signer &sign,
                int timeout_ms, CallDone done);

// The same for a ForwardRequest: the receiver must send ForwardAccepted within accept_ms of the
// call's start (else the call fails as timed out: the receiver is hung), and then its reply within
// timeout_ms. A reply that comes without ForwardAccepted first (a refusal) is the reply.
void async_forward_call(boost::asio::io_context &io, const std::string &host, uint16_t port,
                        const std::string &to, std::vector<uint8_t> message, const Signer &sign,
                        int accept_ms, int timeout_ms, CallDone done);

} // namespace drover::net
