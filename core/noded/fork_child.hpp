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

// A child that leads its own session and waits to be let go: the parent gets it back only once
// it is a session (so process group) leader, so a proctrack container can take it before it
// runs anything.
struct HeldChild {
    pid_t pid = -1;      // -1: fork failed
    int release_fd = -1; // the parent's end; release() closes it
};
// In the child this returns pid 0 only once the parent has released it with go = true (it exits
// when the parent gives up instead), with signals blocked as fork_child leaves them.
HeldChild fork_held();
void release(HeldChild &child, bool go);

} // namespace drover::noded
