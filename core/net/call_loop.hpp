// call_loop.hpp - a second event loop, on a thread of its own, for a daemon's outbound sockets.
//
// Only a droverd emulating many nodes uses one: it does the work of every hop of the fan-out
// tree, both ends of each connection, and on one loop that work would wait behind one core (the
// ping round to 10,000 emulated nodes took half as long again). The hops it sends are served
// here; its servers and all node state stay on the daemon's loop.
#pragma once

#include <memory>

namespace boost::asio {
class io_context;
}

namespace drover::net {

class CallLoop {
  public:
    CallLoop();
    ~CallLoop(); // stops the loop (calls still out are dropped) and joins its thread
    CallLoop(const CallLoop &) = delete;
    CallLoop &operator=(const CallLoop &) = delete;

    boost::asio::io_context &io();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drover::net
