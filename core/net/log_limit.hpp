// log_limit.hpp - one log line per kind of event per interval, however often the event happens:
// a flood of refused frames or failed accepts must not fill the disk with the same line.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace drover::net {

class LogLimit {
  public:
    using Clock = std::chrono::steady_clock;
    explicit LogLimit(Clock::duration interval = std::chrono::seconds(10)) : interval_(interval) {}

    // True when a line may be written now; *suppressed is then how many were held back since the
    // last line (to be said in it). False while the interval since the last line runs.
    bool allow(uint64_t *suppressed, Clock::time_point now = Clock::now()) {
        std::lock_guard lock(mu_);
        if (logged_ && now - last_ < interval_) {
            ++held_;
            return false;
        }
        logged_ = true;
        last_ = now;
        *suppressed = held_;
        held_ = 0;
        return true;
    }

  private:
    std::mutex mu_;
    Clock::duration interval_;
    Clock::time_point last_{};
    bool logged_ = false;
    uint64_t held_ = 0;
};

// The end of a line that LogLimit allowed: " (N more like it not logged)", or nothing.
inline std::string not_logged(uint64_t suppressed) {
    return suppressed ? " (" + std::to_string(suppressed) + " more like it not logged)" : "";
}

} // namespace drover::net
