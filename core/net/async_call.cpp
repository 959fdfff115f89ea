// async_call.cpp - a non-blocking request/reply: resolve (names only), connect, write the frame,
// read the reply's header and body, verify it; one deadline timer over all of it.
#include "net/async_call.hpp"

#include <algorithm>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>

#include "proto/frame.hpp"

namespace asio = boost::asio;
using asio::ip::tcp;

namespace drover::net {

namespace {

class Call : public std::enable_shared_from_this<Call> {
  public:
    Call(asio::io_context &io, std::string host, uint16_t port, CallDone done)
        : sock_(io), timer_(io), resolver_(io), host_(std::move(host)), port_(port),
          done_(std::move(done)) {}

    // accept_ms > 0: a ForwardAccepted is due within accept_ms, the reply within timeout_ms.
    void start(std::vector<uint8_t> frame, int timeout_ms, int accept_ms = 0) {
        frame_ = std::move(frame);
        timeout_ms_ = timeout_ms;
        start_ = std::chrono::steady_clock::now();
        awaiting_accept_ = accept_ms > 0;
        arm(awaiting_accept_ ? std::min(accept_ms, timeout_ms) : timeout_ms);
        boost::system::error_code ec;
        asio::ip::address addr = asio::ip::make_address(host_, ec);
        if (!ec) return connect(std::vector<tcp::endpoint>{tcp::endpoint(addr, port_)});
        resolver_.async_resolve(
            host_, std::to_string(port_),
            [self = shared_from_this()](boost::system::error_code ec,
                                        tcp::resolver::results_type results) {
                if (ec) return self->finish("cannot resolve " + self->host_ + ": " + ec.message());
                self->connect(std::vector<tcp::endpoint>(results.begin(), results.end()));
            });
    }

  private:
    // One timer bounds the call: first until the accept is due, then until the reply is.
    void arm(int ms) {
        timer_.expires_at(start_ + std::chrono::milliseconds(ms));
        timer_.async_wait(
            [self = shared_from_this(), ms, gen = ++timer_gen_](boost::system::error_code ec) {
                if (ec || gen != self->timer_gen_) return;
                self->finish(self->awaiting_accept_
                                 ? "timed out after " + std::to_string(ms) + " ms (not accepted)"
                                 : "timed out after " + std::to_string(ms) + " ms");
            });
    }

    void connect(std::vector<tcp::endpoint> endpoints) {
        if (finished_) return;
        asio::async_connect(
            sock_, endpoints,
            [self = shared_from_this()](boost::system::error_code ec, const tcp::endpoint &) {
                if (ec)
                    return self->finish("connect to " + self->host_ + ":" +
                                        std::to_string(self->port_) + " failed: " + ec.message());
                boost::system::error_code ignored;
                self->sock_.set_option(tcp::no_delay(true), ignored);
                self->write();
            });
    }

    void write() {
        asio::async_write(sock_, asio::buffer(frame_),
                          [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                              if (ec) return self->finish("send failed: " + ec.message());
                              self->frame_ = {};
                              self->read_header();
                          });
    }

    void read_header() {
        asio::async_read(sock_, asio::buffer(header_),
                         [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                             if (ec) return self->finish(self->read_error(ec));
                             std::string err =
                                 proto::decode_frame_header(self->header_, &self->head_);
                             if (!err.empty())
                                 return self->finish("bad reply from " + self->host_ + ": " + err);
                             self->read_rest();
                         });
    }

    // The preamble (not checked: this end opened the connection) and the body, in one buffer.
    void read_rest() {
        rest_.resize(std::size_t(head_.preamble_len) + head_.body_len);
        asio::async_read(sock_, asio::buffer(rest_),
                         [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                             if (ec) return self->finish(self->read_error(ec));
                             self->got_frame();
                         });
    }

    void got_frame() {
        reply_->bytes.assign(rest_.begin() + head_.preamble_len, rest_.end());
        std::string err = accept_reply(head_, {rest_.data(), head_.preamble_len}, *reply_, host_);
        if (!err.empty()) return finish(err);
        if (awaiting_accept_ && reply_->msg->body_type() == proto::Body::ForwardAccepted) {
            // Accepted: now the reply, within the call's whole timeout.
            awaiting_accept_ = false;
            arm(timeout_ms_);
            return read_header();
        }
        finish({});
    }

    static std::string read_error(const boost::system::error_code &ec) {
        return ec == asio::error::eof ? "connection closed by peer"
                                      : "receive failed: " + ec.message();
    }

    // Ends the call once: stops the timer and the socket (their handlers then see it finished).
    void finish(const std::string &error) {
        if (finished_) return;
        finished_ = true;
        boost::system::error_code ignored;
        timer_.cancel();
        resolver_.cancel();
        sock_.close(ignored);
        CallDone done = std::move(done_);
        done(error, error.empty() ? std::move(reply_) : nullptr);
    }

    tcp::socket sock_;
    asio::steady_timer timer_;
    tcp::resolver resolver_;
    std::string host_;
    uint16_t port_;
    CallDone done_;
    std::vector<uint8_t> frame_;
    uint8_t header_[proto::kFrameHeaderSize]{};
    proto::FrameHeader head_;
    std::vector<uint8_t> rest_;
    std::shared_ptr<Reply> reply_ = std::make_shared<Reply>();
    bool finished_ = false;
    bool awaiting_accept_ = false;
    int timeout_ms_ = 0;
    unsigned timer_gen_ = 0; // a wait the timer was re-armed past must not end the call
    std::chrono::steady_clock::time_point start_;
};

} // namespace

void async_call(asio::io_context &io, const std::string &host, uint16_t port, const std::string &to,
                std::vector<uint8_t> message, const Signer &sign, int timeout_ms, CallDone done) {
    async_forward_call(io, host, port, to, std::move(message), sign, 0, timeout_ms,
                       std::move(done));
}

void async_forward_call(asio::io_context &io, const std::string &host, uint16_t port,
                        const std::string &to, std::vector<uint8_t> message, const Signer &sign,
                        int accept_ms, int timeout_ms, CallDone done) {
    std::vector<uint8_t> frame;
    try {
        frame = sealed_frame(message, to, sign);
    } catch (const std::exception &e) {
        std::string why = e.what()[0] ? e.what() : "cannot sign the request";
        asio::post(io, [done = std::move(done), why] { done(why, nullptr); });
        return;
    }
    auto call = std::make_shared<Call>(io, host, port, std::move(done));
    // Started from the loop, so that done never runs inside async_call (callers may hold state
    // they change after it returns) and the sockets are touched from the loop's thread only.
    asio::post(io, [call, frame = std::move(frame), timeout_ms, accept_ms]() mutable {
        call->start(std::move(frame), timeout_ms, accept_ms);
    });
}

} // namespace drover::net
