// accept_loop.hpp - the accept loop of the daemons' listening sockets (TCP and the credential
// socket): every connection goes through the process's admission first, and accept errors (out of
// descriptors, above all) back off instead of spinning, with one log line per interval.
//
// Boost.Asio stays inside the .cpp files that include this header.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include <spdlog/spdlog.h>

#include "net/admission.hpp"
#include "net/log_limit.hpp"

namespace drover::net {

// Accepts on acceptor until it closes. For each connection, peer_of names its peer for the
// admission; start(socket, id) gets the admitted ones, each with its admission id. what names the
// listener in logs ("port 6817", "credential socket /run/drover/auth.socket").
template <class Acceptor, class Socket>
struct AcceptLoop : std::enable_shared_from_this<AcceptLoop<Acceptor, Socket>> {
    AcceptLoop(Acceptor &a, std::string what_, std::function<std::string(Socket &)> peer,
               std::function<std::function<void()>(Socket, Admission::Id)> start_)
        : acceptor(a), retry(a.get_executor()), what(std::move(what_)), peer_of(std::move(peer)),
          start(std::move(start_)) {}

    void run() {
        auto self = this->shared_from_this();
        acceptor.async_accept([self](boost::system::error_code ec, Socket sock) {
            if (ec == boost::asio::error::operation_aborted || !self->acceptor.is_open()) return;
            if (ec) return self->back_off(ec);
            self->admit(std::make_shared<Socket>(std::move(sock)), 0);
        });
    }

  private:
    // Admits a connection and accepts the next. When there is no room and no waiting connection is
    // old enough to evict, the loop holds this one and stops accepting for a moment: the peers
    // behind it wait in the kernel's backlog rather than being refused, and a real client, which
    // sends its frame at once, gets in as soon as a flood's connections may be evicted.
    void admit(std::shared_ptr<Socket> sock, int tries) {
        constexpr int kTries = 40; // 2 s
        std::string peer = peer_of(*sock);
        // The connection does not exist yet when it is admitted: its closer is filled in after (it
        // cannot be evicted before, being younger than the admission's min_age).
        auto closer = std::make_shared<std::function<void()>>();
        Admission &adm = Admission::process();
        Admission::Id id = adm.open(peer, [closer] {
            if (*closer) (*closer)();
        });
        if (id != 0) {
            *closer = start(std::move(*sock), id);
            return run();
        }
        uint64_t held = 0;
        if (tries == 0 && refused_log.allow(&held))
            spdlog::warn(
                "{}: holding new connections (from {} first): {} connections open, {} waiting "
                "for a frame (limits {}, {}, {} a peer){}",
                what, peer, adm.open_count(), adm.waiting_count(), adm.limits().open,
                adm.limits().waiting, adm.limits().waiting_per_peer, not_logged(held));
        if (tries >= kTries) {
            boost::system::error_code ignored;
            sock->close(ignored);
            return run();
        }
        retry.expires_after(std::chrono::milliseconds(50));
        retry.async_wait(
            [self = this->shared_from_this(), sock, tries](boost::system::error_code e) {
                if (!e && self->acceptor.is_open()) self->admit(sock, tries + 1);
            });
    }

    void back_off(const boost::system::error_code &ec) {
        uint64_t held = 0;
        if (error_log.allow(&held))
            spdlog::error("{}: accept failed: {} ({} connections open); retrying in 100 ms{}", what,
                          ec.message(), Admission::process().open_count(), not_logged(held));
        retry.expires_after(std::chrono::milliseconds(100));
        retry.async_wait([self = this->shared_from_this()](boost::system::error_code e) {
            if (!e && self->acceptor.is_open()) self->run();
        });
    }

    Acceptor &acceptor;
    boost::asio::steady_timer retry;
    std::string what;
    std::function<std::string(Socket &)> peer_of;
    std::function<std::function<void()>(Socket, Admission::Id)> start;
    LogLimit refused_log, error_log;
};

} // namespace drover::net
