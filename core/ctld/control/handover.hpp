// handover.hpp - the controller in control's part in moving control: it hands control to a
// standby that asks (a primary taking control back, or scontrol takeover), steps down when
// another controller of a newer generation (epoch) is in control, and takes the standbys down
// with it on scontrol shutdown.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "ctld/context.hpp"
#include "net/server.hpp"

namespace drover::ctld {

class NodeManager;
class ReplSource;

class Handover {
  public:
    // step_down(take_back) ends this controller's time in control; take_back: as a standby, ask
    // for control again once caught up.
    Handover(Ctx &ctx, const NodeManager &nodes, ReplSource &repl, std::size_t self,
             std::function<void(bool)> step_down);
    ~Handover();

    // A standby's RelinquishRequest (from an administrator).
    void on_relinquish(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    // While handing over, everything but pings and pulls is refused.
    bool handing_over() const;
    // A request carried this generation, newer than ours: another controller is in control.
    void newer_epoch(uint64_t epoch);
    // A node refused a request of ours for a newer generation.
    void fenced_by_node();
    // Pings the other controllers (every second while in control).
    void watch_peers();
    // Asks the standbys to shut down too (scontrol shutdown).
    void shutdown_standbys();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drover::ctld
