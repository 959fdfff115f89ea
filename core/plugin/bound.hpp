// bound.hpp - Bound<Ops>: one loaded plugin's operations table, state and identity.
#pragma once

#include <string>

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
    explicit operator bool() const { return !id.empty(); }
};

} // namespace drover::plugin
