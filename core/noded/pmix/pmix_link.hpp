// pmix_link.hpp - the socket between droverd and a step's drover-pmix helper on its node: frames
// of a 12-byte header (type, rank, length; little-endian as stepio's) and their bytes.
//
// helper -> droverd: Env (a local rank's PMIx variables, "KEY=value" each ended by a NUL), then
// Ready once every local rank's are sent (or Failed with why); later Fence (this node's part of
// a PMIx fence) and Abort (int32 status, then the message) as the tasks ask.
// droverd -> helper: FenceDone (every node's parts, one after another), Exited (a local rank's
// task has ended: the helper answers Abort with status -1 when the rank had connected and not
// finalized, so the other ranks do not wait for it in their next fence). droverd closing the
// socket ends the helper.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/step_io.hpp"

namespace drover::noded::pmixlink {

enum Type : uint8_t {
    Env = 1,
    Ready = 2,
    Failed = 3,
    Fence = 4,
    FenceDone = 5,
    Abort = 6,
    Exited = 7,
};

inline constexpr std::size_t kHeader = 12;

inline void frame(std::string &out, Type type, uint32_t rank, std::string_view data) {
    uint8_t h[kHeader] = {type, 0, 0, 0};
    stepio::put32(h + 4, rank);
    stepio::put32(h + 8, uint32_t(data.size()));
    out.append(reinterpret_cast<const char *>(h), kHeader);
    out.append(data);
}

struct Frame {
    Type type;
    uint32_t rank;
    std::string_view data; // into the buffer it was read from
    std::size_t used;      // bytes it took there
};

// The whole frame at the front of in; none while it is incomplete, or (with *bad set) when its
// header is one no side writes.
inline std::optional<Frame> take(std::string_view in, bool *bad) {
    *bad = false;
    if (in.size() < kHeader) return std::nullopt;
    const auto *p = reinterpret_cast<const uint8_t *>(in.data());
    uint32_t len = stepio::get32(p + 8);
    if (p[0] < Env || p[0] > Exited || len > (64u << 20)) {
        *bad = true;
        return std::nullopt;
    }
    if (in.size() < kHeader + len) return std::nullopt;
    return Frame{Type(p[0]), stepio::get32(p + 4), in.substr(kHeader, len), kHeader + len};
}

} // namespace drover::noded::pmixlink
