// admission.cpp - connection limits and eviction of the oldest waiting connection.
#include "net/admission.hpp"

#include <algorithm>
#include <filesystem>
#include <sys/resource.h>
#include <vector>

namespace drover::net {

Admission::Limits Admission::for_descriptors(std::size_t nofile) {
    Limits l;
    std::size_t reserve = std::max<std::size_t>(64, nofile / 8);
    l.open = nofile > reserve + 16 ? nofile - reserve : 16;
    l.waiting = std::max<std::size_t>(8, l.open / 2);
    l.waiting_per_peer = std::max<std::size_t>(4, l.waiting / 4);
    return l;
}

namespace {
// Descriptors this process has open now: its listening sockets above all (an emulating droverd
// has one per node), which connections cannot have.
std::size_t open_descriptors() {
    std::error_code ec;
    std::size_t n = 0;
    for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
        ++n;
    return n;
}
} // namespace

Admission &Admission::process() {
    // First used when the first connection arrives: the daemon's listeners are all open by then.
    static Admission admission([] {
        rlimit rl{};
        std::size_t n = 1024;
        if (::getrlimit(RLIMIT_NOFILE, &rl) == 0)
            n = rl.rlim_cur == RLIM_INFINITY ? std::size_t(1) << 20 : std::size_t(rl.rlim_cur);
        std::size_t used = open_descriptors();
        return for_descriptors(n > used ? n - used : 0);
    }());
    return admission;
}

void Admission::start_waiting(Id id, Entry &e, Clock::time_point now) {
    e.waiting = true;
    e.since = now;
    e.in_all = waiting_.insert(waiting_.end(), id);
    auto &mine = by_peer_[e.peer];
    e.in_peer = mine.insert(mine.end(), id);
}

void Admission::stop_waiting(Entry &e) {
    if (!e.waiting) return;
    e.waiting = false;
    waiting_.erase(e.in_all);
    auto it = by_peer_.find(e.peer);
    it->second.erase(e.in_peer);
    if (it->second.empty()) by_peer_.erase(it);
}

std::function<void()> Admission::evict_oldest(std::list<Id> &order, Clock::time_point now) {
    if (order.empty()) return {};
    auto it = entries_.find(order.front());
    if (now - it->second.since < limits_.min_age) return {};
    std::function<void()> evict = std::move(it->second.evict);
    stop_waiting(it->second); // may erase order itself (a peer's list that became empty)
    entries_.erase(it);
    return evict ? evict : [] {};
}

bool Admission::make_room(const std::string &peer, bool new_connection, Clock::time_point now,
                          std::vector<std::function<void()>> &evicted) {
    auto evict_from = [&](std::list<Id> &order) {
        auto e = evict_oldest(order, now);
        if (!e) return false;
        evicted.push_back(std::move(e));
        return true;
    };
    if (new_connection && entries_.size() >= limits_.open && !evict_from(waiting_)) return false;
    auto mine = by_peer_.find(peer);
    if (mine != by_peer_.end() && mine->second.size() >= limits_.waiting_per_peer &&
        !evict_from(mine->second))
        return false;
    return waiting_.size() < limits_.waiting || evict_from(waiting_);
}

Admission::Id Admission::open(const std::string &peer, std::function<void()> evict,
                              Clock::time_point now) {
    std::vector<std::function<void()>> evicted;
    Id id = 0;
    {
        std::lock_guard lock(mu_);
        if (make_room(peer, true, now, evicted)) {
            id = next_++;
            Entry &e = entries_[id];
            e.peer = peer;
            e.evict = std::move(evict);
            start_waiting(id, e, now);
        }
    }
    for (auto &e : evicted) e();
    return id;
}

bool Admission::wait(Id id, Clock::time_point now) {
    std::vector<std::function<void()>> evicted;
    bool ok = true;
    {
        std::lock_guard lock(mu_);
        auto it = entries_.find(id);
        if (it == entries_.end()) return false;
        if (it->second.waiting) return true;
        ok = make_room(it->second.peer, false, now, evicted);
        if (ok)
            start_waiting(id, it->second, now);
        else
            entries_.erase(it);
    }
    for (auto &e : evicted) e();
    return ok;
}

void Admission::authenticated(Id id) {
    std::lock_guard lock(mu_);
    auto it = entries_.find(id);
    if (it != entries_.end()) stop_waiting(it->second);
}

void Admission::close(Id id) {
    std::lock_guard lock(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return;
    stop_waiting(it->second);
    entries_.erase(it);
}

std::size_t Admission::open_count() const {
    std::lock_guard lock(mu_);
    return entries_.size();
}

std::size_t Admission::waiting_count() const {
    std::lock_guard lock(mu_);
    return waiting_.size();
}

} // namespace drover::net
