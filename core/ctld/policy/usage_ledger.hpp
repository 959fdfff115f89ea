// usage_ledger.hpp - what each association has used, for fair-share: billing-seconds of the
// jobs charged to it and to every association under it, decayed with PriorityDecayHalfLife and
// cleared on PriorityUsageResetPeriod. Pure: the controller's Priorities keeps it in the state
// store, one record per association (so a job's end writes only its own chain) and one for the
// clock (so a restart or a takeover neither decays twice nor charges a running job twice).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace drover::ctld::policy {

class UsageLedger {
  public:
    // Raw usage under an association key (AssocRec::key()); 0 when none.
    double usage(const std::string &assoc_key) const;
    const std::unordered_map<std::string, double> &all() const { return usage_; }
    // Adds amount to each of keys (an association and its parents).
    void charge(const std::vector<std::string> &keys, double amount);
    // Decays every usage by 2^(-(now - tick) / half_life) (no decay for half_life 0) and moves
    // the tick to now. The first call (tick 0) only sets the tick.
    void decay(int64_t now, uint64_t half_life_s);
    // Clears all usage when a PriorityUsageResetPeriod boundary passed since the last reset (the
    // first call with a period only starts counting; NOW: on every call with starting set, that
    // is once per controller start). Returns whether it cleared; cleared (when given) gets the
    // keys that had usage, whose records go.
    bool reset_if_due(int64_t now, std::string_view period, bool starting,
                      std::vector<std::string> *cleared = nullptr);

    // When usage was last decayed (and running jobs charged up to): 0 before the first tick.
    int64_t tick() const { return tick_; }
    int64_t last_reset() const { return last_reset_; }

    // The state store's records: "usage/<assoc key>" -> the usage (8 bytes), and
    // kClockKey -> the tick and the last reset (16 bytes).
    static constexpr std::string_view kPrefix = "usage/";
    static constexpr std::string_view kClockKey = "usage_clock";
    static std::vector<uint8_t> record_key(const std::string &assoc_key);
    static std::vector<uint8_t> clock_key();
    static std::vector<uint8_t> encode_usage(double usage);
    std::vector<uint8_t> encode_clock() const;
    // Reads one record back (key as stored); false for one that does not decode.
    bool load(std::span<const uint8_t> key, std::span<const uint8_t> value);

  private:
    std::unordered_map<std::string, double> usage_;
    int64_t tick_ = 0, last_reset_ = 0;
};

// The latest start of a PriorityUsageResetPeriod (DAILY: midnight; WEEKLY: Sunday midnight;
// MONTHLY, QUARTERLY, YEARLY: the first of the month, quarter, year) at or before now, local
// time; 0 for NONE and NOW.
int64_t reset_boundary(int64_t now, std::string_view period);

} // namespace drover::ctld::policy
