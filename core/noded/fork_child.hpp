// fork_child.hpp - fork for the node daemon's children (batch scripts, step shepherds).
//
// The daemon's signal handlers (Asio's, which write to a pipe the daemon reads) must never run in
// a child: a signal meant for the child would reach the daemon as its own. So signals are blocked
// across fork, the child resets every handler to the default before it unblocks anything, and
// the parent restores its mask.
#pragma once

#include <sys/types.h>

namespace drover::noded {

// Like fork(); in the child every signal is still blocked and every handler is SIG_DFL (the
// child unblocks when it is ready).
pid_t fork_child();

}  // namespace drover::noded
