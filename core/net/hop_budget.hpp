// hop_budget.hpp - how many fan-out hops a process may have open at once, and who goes next.
//
// A hop holds its connection until the child's whole subtree has answered. With one droverd per
// node that is at most TreeWidth connections a process; a droverd emulating thousands of nodes
// holds the hops of every level of the tree at once, two descriptors each (its connection and
// the accepted one of the emulated child), next to a listening socket per node, and would run
// out of file descriptors. The budget bounds the hops open at once by the descriptors left.
//
// Hops wait on their children, so a plain limit could be filled by parents whose children then
// wait for ever. Each hop says how many levels its subtree has (need: 1 for a single node), and
// takes a slot only while at least need are free. The last free slot can then only go to a
// single node, which needs nothing more and gives it back; by induction every level drains, so
// the tree always finishes (shallow hops first when slots are short).
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>

namespace drover::net {

class HopBudget {
  public:
    explicit HopBudget(std::size_t slots)
        : slots_(std::max<std::size_t>(slots, 1)), free_(slots_) {}

    // A budget for this process: half of the file descriptors not open now (less a reserve for
    // everything else), at least 16.
    static std::size_t slots_for_this_process();

    // Runs go once a hop whose subtree is need levels deep may open its connection: now, from
    // this call, or later from the release() that makes room (on that caller's thread). A need
    // beyond the whole budget counts as the whole budget.
    void acquire(unsigned need, std::function<void()> go);
    // Gives back the slot of a hop that has finished.
    void release();

    // Forgets the hops still waiting (their loop is going away).
    void drop_waiting();

    std::size_t free_slots() const;
    std::size_t waiting() const;

  private:
    mutable std::mutex mu_;
    const std::size_t slots_;
    std::size_t free_;
    std::multimap<unsigned, std::function<void()>> waiting_; // by need; first come first within one
};

} // namespace drover::net
