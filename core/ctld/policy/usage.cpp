// usage.cpp - the usage index.
#include "ctld/policy/usage.hpp"

#include <algorithm>

namespace drover::ctld::policy {

std::string usage_key_assoc(const std::string &assoc_key) {
    return "a\x1f" + assoc_key;
}
std::string usage_key_qos(const std::string &qos) {
    return "q\x1f" + qos;
}
std::string usage_key_qos_user(const std::string &qos, uint32_t uid) {
    return "u\x1f" + qos + '\x1f' + std::to_string(uid);
}
std::string usage_key_qos_account(const std::string &qos, const std::string &account) {
    return "c\x1f" + qos + '\x1f' + account;
}

namespace {

void take(Tres &from, const std::string &name, uint64_t n) {
    uint64_t &have = from[name];
    have -= std::min(have, n);
}

} // namespace

Tres run_minutes(const Use &u, uint64_t now_min) {
    Tres out;
    for (const auto &[t, end] : u.run_end) {
        auto it = u.run_tres.find(t);
        uint64_t spent = it == u.run_tres.end() ? 0 : it->second * now_min;
        out[t] = end > spent ? end - spent : 0;
    }
    return out;
}

void UsageIndex::add(const Share &s, int sign) {
    for (const auto &k : s.keys) {
        Use &u = by_key_[k];
        if (sign > 0) {
            u.submitted += s.submitted;
            u.running += s.running;
            if (s.running)
                for (const auto &[t, n] : s.tres) {
                    u.tres[t] += n;
                    if (s.end_min) {
                        u.run_end[t] += n * s.end_min;
                        u.run_tres[t] += n;
                    }
                }
            continue;
        }
        u.submitted -= std::min(u.submitted, s.submitted);
        u.running -= std::min<uint64_t>(u.running, s.running);
        if (s.running)
            for (const auto &[t, n] : s.tres) {
                take(u.tres, t, n);
                if (s.end_min) {
                    take(u.run_end, t, n * s.end_min);
                    take(u.run_tres, t, n);
                }
            }
        if (u.submitted == 0 && u.running == 0) by_key_.erase(k);
    }
}

void UsageIndex::set(uint32_t job_id, Share share) {
    auto it = by_job_.find(job_id);
    if (it != by_job_.end()) {
        add(it->second, -1);
        by_job_.erase(it);
    }
    if (share.keys.empty() || (share.submitted == 0 && !share.running)) return;
    add(share, +1);
    by_job_.emplace(job_id, std::move(share));
}

void UsageIndex::clear() {
    by_key_.clear();
    by_job_.clear();
}

const Use &UsageIndex::use(const std::string &key) const {
    static const Use kNone;
    auto it = by_key_.find(key);
    return it == by_key_.end() ? kNone : it->second;
}

} // namespace drover::ctld::policy
