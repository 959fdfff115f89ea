// hop_budget.cpp - slots for open hops, granted shallowest first while enough stay free.
#include "net/hop_budget.hpp"

#include <dirent.h>
#include <sys/resource.h>

#include <vector>

namespace drover::net {

namespace {

std::size_t open_fds() {
    std::size_t n = 0;
    if (DIR *d = ::opendir("/proc/self/fd")) {
        while (::readdir(d)) ++n;
        ::closedir(d);
    }
    return n;
}

} // namespace

std::size_t HopBudget::slots_for_this_process() {
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return 1u << 20;
    std::size_t limit = rl.rlim_cur, used = open_fds(), reserve = 256 + limit / 16;
    std::size_t left = limit > used + reserve ? limit - used - reserve : 0;
    return std::max<std::size_t>(16, left / 2);
}

void HopBudget::drop_waiting() {
    std::multimap<unsigned, std::function<void()>> dropped;
    {
        std::lock_guard lk(mu_);
        dropped.swap(waiting_);
    }
}

void HopBudget::acquire(unsigned need, std::function<void()> go) {
    need = unsigned(std::clamp<std::size_t>(need, 1, slots_));
    {
        std::lock_guard lk(mu_);
        // Behind a waiting hop of the same or smaller need, wait too: slots go shallowest first.
        bool earlier = !waiting_.empty() && waiting_.begin()->first <= need;
        if (earlier || free_ < need) {
            waiting_.emplace(need, std::move(go));
            return;
        }
        --free_;
    }
    go();
}

void HopBudget::release() {
    std::vector<std::function<void()>> ready;
    {
        std::lock_guard lk(mu_);
        ++free_;
        while (!waiting_.empty() && free_ >= waiting_.begin()->first) {
            ready.push_back(std::move(waiting_.begin()->second));
            waiting_.erase(waiting_.begin());
            --free_;
        }
    }
    for (auto &go : ready) go();
}

std::size_t HopBudget::free_slots() const {
    std::lock_guard lk(mu_);
    return free_;
}

std::size_t HopBudget::waiting() const {
    std::lock_guard lk(mu_);
    return waiting_.size();
}

} // namespace drover::net
