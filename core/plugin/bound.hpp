// bound.hpp - Bound<Ops>: one loaded plugin's operations table, state and identity.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <drover/plugin.h>

#include "plugin/call_timings.hpp"

namespace drover::plugin {

// One plugin's operations, copied into the core's current table layout: members past the end of
// the plugin's own table are NULL. The core calls them through the typed wrappers of calls.hpp
// (select_calls.hpp, ...), which test a member before calling an optional op; a test builds a
// Bound over a table of its own functions to stand in for a plugin.
template <class Ops>
struct Bound {
    Ops ops{};
    void *state = nullptr;
    std::string id;   // "select/linear"
    std::string path; // the file it came from
    // The ABI minor it was built against: what it knows of the members appended since (a fake
    // of a unit test speaks the core's).
    uint16_t abi_minor = DROVER_ABI_MINOR;
    // Its calls, op by op (shared by the copies of this Bound).
    std::shared_ptr<CallTimings> timings = std::make_shared<CallTimings>();
    explicit operator bool() const { return !id.empty(); }
};

} // namespace drover::plugin
