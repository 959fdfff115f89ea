// cstr.hpp - the core lends its strings to plugins as borrowed drover_str views.
#pragma once

#include <string>

#include <drover/plugin.h>

namespace drover::plugin {

// A view of s, valid while s is alive and unchanged.
inline drover_str cstr(const std::string &s) {
    return {s.data(), s.size()};
}

} // namespace drover::plugin
