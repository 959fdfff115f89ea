// call_timings.hpp - how often each op of a loaded plugin was called and how long the calls took
// (the controller's metrics show them per plugin and op). Recorded by the typed wrappers
// (calls.hpp) around every call into a plugin, from whatever thread makes it.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace drover::plugin {

struct OpTiming {
    uint64_t calls = 0, usec_sum = 0, usec_max = 0;
};

class CallTimings {
  public:
    void record(std::string_view op, uint64_t usec) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = by_op_.find(op);
        if (it == by_op_.end()) it = by_op_.emplace(std::string(op), OpTiming{}).first;
        OpTiming &t = it->second;
        ++t.calls;
        t.usec_sum += usec;
        if (usec > t.usec_max) t.usec_max = usec;
    }
    // A copy, op by op in name order.
    std::map<std::string, OpTiming, std::less<>> snapshot() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return by_op_;
    }

  private:
    mutable std::mutex mutex_;
    std::map<std::string, OpTiming, std::less<>> by_op_;
};

// Times one call: records into timings (when there are any) as it goes out of scope.
class TimedCall {
  public:
    TimedCall(CallTimings *timings, std::string_view op)
        : timings_(timings), op_(op), start_(std::chrono::steady_clock::now()) {}
    ~TimedCall() {
        if (!timings_) return;
        auto usec = std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::steady_clock::now() - start_)
                        .count();
        timings_->record(op_, uint64_t(usec));
    }
    TimedCall(const TimedCall &) = delete;
    TimedCall &operator=(const TimedCall &) = delete;

  private:
    CallTimings *timings_;
    std::string_view op_; // a literal of the wrapper's
    std::chrono::steady_clock::time_point start_;
};

} // namespace drover::plugin
