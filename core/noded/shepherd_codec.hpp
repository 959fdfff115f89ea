// shepherd_codec.hpp - a step supervisor's spec as bytes, for the exec that starts it.
//
// droverd is multi-threaded; a forked copy of it may not allocate (another thread may have held
// an allocator lock at the fork, and the child would wait on it for ever), yet a shepherd does
// much work. So the forked child only execs drover-shepherd (a small program beside droverd) as
// `drover-shepherd FD`, which reads its ShepherdSpec from FD (a memory file written before the
// fork).
#pragma once

#include <string>
#include <string_view>

#include "noded/shepherd.hpp"

namespace drover::noded {

// The spec's bytes: every field, descriptors by number (they stay open across the exec).
std::string encode_shepherd_spec(const ShepherdSpec &spec);

// The spec back from encode_shepherd_spec's bytes; throws std::runtime_error for bytes that are
// cut short or do not end where the spec does.
ShepherdSpec decode_shepherd_spec(std::string_view bytes);

// `drover-shepherd FD`: reads the spec from FD, closes it, and runs the shepherd (never
// returns); exits 127 when FD holds no spec.
[[noreturn]] void shepherd_main(int fd);

} // namespace drover::noded
