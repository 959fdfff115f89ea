// usage_ledger.cpp - decayed usage per association, and its state-store records.
#include "ctld/policy/usage_ledger.hpp"

#include <cmath>
#include <cstring>
#include <ctime>

#include "common/timefmt.hpp"

namespace drover::ctld::policy {

namespace {

template <class T>
void put(std::vector<uint8_t> &out, T v) {
    const std::size_t at = out.size();
    out.resize(at + sizeof v);
    std::memcpy(out.data() + at, &v, sizeof v);
}

template <class T>
T get(std::span<const uint8_t> in, std::size_t at) {
    T v;
    std::memcpy(&v, in.data() + at, sizeof v);
    return v;
}

} // namespace

double UsageLedger::usage(const std::string &assoc_key) const {
    auto it = usage_.find(assoc_key);
    return it == usage_.end() ? 0 : it->second;
}

void UsageLedger::charge(const std::vector<std::string> &keys, double amount) {
    if (!(amount > 0)) return;
    for (const auto &k : keys) usage_[k] += amount;
}

void UsageLedger::decay(int64_t now, uint64_t half_life_s) {
    if (tick_ != 0 && now > tick_ && half_life_s > 0) {
        const double f = std::exp2(-double(now - tick_) / double(half_life_s));
        for (auto &[k, u] : usage_) u *= f;
    }
    if (now > tick_) tick_ = now;
}

bool UsageLedger::reset_if_due(int64_t now, std::string_view period, bool starting,
                               std::vector<std::string> *cleared) {
    if (period == "NOW") {
        if (!starting) return false;
    } else {
        const int64_t boundary = reset_boundary(now, period);
        if (boundary == 0) return false;
        if (last_reset_ == 0) { // the period was just set: it counts from now
            last_reset_ = now;
            return false;
        }
        if (boundary <= last_reset_) return false;
    }
    if (cleared)
        for (const auto &[k, u] : usage_) cleared->push_back(k);
    usage_.clear();
    last_reset_ = now;
    return true;
}

std::vector<uint8_t> UsageLedger::record_key(const std::string &assoc_key) {
    std::vector<uint8_t> k(kPrefix.size() + assoc_key.size());
    std::memcpy(k.data(), kPrefix.data(), kPrefix.size());
    if (!assoc_key.empty())
        std::memcpy(k.data() + kPrefix.size(), assoc_key.data(), assoc_key.size());
    return k;
}

std::vector<uint8_t> UsageLedger::clock_key() {
    return {kClockKey.begin(), kClockKey.end()};
}

std::vector<uint8_t> UsageLedger::encode_usage(double usage) {
    std::vector<uint8_t> v;
    put(v, usage);
    return v;
}

std::vector<uint8_t> UsageLedger::encode_clock() const {
    std::vector<uint8_t> v;
    put(v, tick_);
    put(v, last_reset_);
    return v;
}

bool UsageLedger::load(std::span<const uint8_t> key, std::span<const uint8_t> value) {
    std::string_view k(reinterpret_cast<const char *>(key.data()), key.size());
    if (k == kClockKey) {
        if (value.size() != 2 * sizeof(int64_t)) return false;
        tick_ = get<int64_t>(value, 0);
        last_reset_ = get<int64_t>(value, sizeof(int64_t));
        return true;
    }
    if (!k.starts_with(kPrefix) || value.size() != sizeof(double)) return false;
    double u = get<double>(value, 0);
    if (!std::isfinite(u) || u < 0) return false;
    usage_[std::string(k.substr(kPrefix.size()))] = u;
    return true;
}

int64_t reset_boundary(int64_t now, std::string_view period) {
    std::tm tm = local_tm(now);
    tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
    tm.tm_isdst = -1;
    if (period == "DAILY") return make_local(tm);
    if (period == "WEEKLY") {
        tm.tm_mday -= tm.tm_wday; // back to Sunday; mktime normalises the month
        return make_local(tm);
    }
    tm.tm_mday = 1;
    if (period == "MONTHLY") return make_local(tm);
    if (period == "QUARTERLY") {
        tm.tm_mon -= tm.tm_mon % 3;
        return make_local(tm);
    }
    if (period == "YEARLY") {
        tm.tm_mon = 0;
        return make_local(tm);
    }
    return 0;
}

} // namespace drover::ctld::policy
