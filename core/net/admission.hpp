// admission.hpp - how many connections a daemon holds, and for whom, so that no peer can take its
// file descriptors before proving who it is.
//
// A connection is "waiting" from its accept (and again after each reply) until its sender has
// proved who it is: the frame's header and preamble are in and its credential checks out. Only
// waiting connections cost a peer nothing to hold, so only they are bounded per peer and evicted:
// when a limit is reached, the oldest waiting connection (of the same peer, when that peer is at
// its own limit) is closed for the new one, if it has waited at least min_age; otherwise the new
// one is not admitted (the accept loop holds it and asks again shortly). A flood of idle
// connections thus churns through its own slots, while a real client, which sends its frame at
// once, gets in. Descriptors are kept in reserve for the daemon's own outbound calls (pings,
// launches), its files and its children.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace drover::net {

class Admission {
  public:
    using Clock = std::chrono::steady_clock;
    struct Limits {
        std::size_t open = 0;             // connections of every kind
        std::size_t waiting = 0;          // waiting ones (see above)
        std::size_t waiting_per_peer = 0; // waiting ones from one address (or local uid)
        // A real client's frame is in flight when it is accepted; a flood's idle connection is
        // still idle this long after.
        Clock::duration min_age = std::chrono::milliseconds(250);
    };
    // The limits for a process that may hold nofile descriptors: an eighth (at least 64) kept in
    // reserve, half of the rest for waiting connections, a quarter of those for one peer.
    static Limits for_descriptors(std::size_t nofile);
    // The process's admission, shared by all its servers, sized at first use by RLIMIT_NOFILE less
    // the descriptors then open.
    static Admission &process();

    explicit Admission(Limits limits) : limits_(limits) {}

    using Id = uint64_t;
    // A new connection from peer, waiting from now. Returns its id, or 0 when it is refused (the
    // caller closes it). May evict older waiting connections first: each one's evict runs once,
    // outside this object's lock, and its id is then forgotten.
    Id open(const std::string &peer, std::function<void()> evict,
            Clock::time_point now = Clock::now());
    // The connection waits again (for its next frame), making room as open does. False when there
    // is none: the id is then forgotten and the caller closes the connection.
    bool wait(Id id, Clock::time_point now = Clock::now());
    // Its sender proved who it is.
    void authenticated(Id id);
    // It closed. Unknown (evicted, refused) ids are ignored.
    void close(Id id);

    std::size_t open_count() const;
    std::size_t waiting_count() const;
    const Limits &limits() const { return limits_; }

  private:
    struct Entry {
        std::string peer;
        Clock::time_point since;
        bool waiting = false;
        std::list<Id>::iterator in_all, in_peer;
        std::function<void()> evict;
    };
    void start_waiting(Id id, Entry &e, Clock::time_point now);
    // Evicts what must go for one more waiting connection from peer (and, for a new one, one more
    // open connection); false when that would take evicting one younger than min_age.
    bool make_room(const std::string &peer, bool new_connection, Clock::time_point now,
                   std::vector<std::function<void()>> &evicted);
    void stop_waiting(Entry &e);
    // Removes the oldest of order if it has waited min_age; returns its evict, or nothing.
    std::function<void()> evict_oldest(std::list<Id> &order, Clock::time_point now);

    Limits limits_;
    mutable std::mutex mu_;
    Id next_ = 1;
    std::unordered_map<Id, Entry> entries_;
    std::list<Id> waiting_;                                  // oldest first
    std::unordered_map<std::string, std::list<Id>> by_peer_; // waiting ones, oldest first
};

} // namespace drover::net
