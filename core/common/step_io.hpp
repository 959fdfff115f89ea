// step_io.hpp - the byte stream between a step's node daemons and its srun.
//
// Each node daemon running part of a step connects to the port srun named in StepLaunchRequest
// and sends Hello with the key srun put there (the launch request was authenticated, so the key
// proves the connection comes from the node srun asked). Frames then flow both ways: output,
// task ends and PMI fences up, input, signals and fence results down. A frame is a 12-byte
// header (little-endian) and len bytes.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace drover::stepio {

enum Type : uint8_t {
    Hello = 1,  // node -> srun: key (32 bytes) then the node's name
    Stdout = 2, // node -> srun: a task's output
    Stderr = 3,
    TaskExit = 4,  // node -> srun: int32 raw wait status
    NodeDone = 5,  // node -> srun: uint32 state the node decided (0 = none), uint32 OOM kills
    Message = 6,   // node -> srun: a line for srun to print as its own error
    PmiFence = 7,  // node -> srun: every task here entered a PMI fence; its new keys (pmi_server)
    PmiAbort = 8,  // node -> srun: task asked PMI to abort (int32 code), or died before finalizing
    Stdin = 10,    // srun -> node: input for task (kAllTasks: every task here)
    StdinEof = 11, // srun -> node: no more input
    Signal = 12,   // srun -> node: int32 signal for every task of the step here
    PmiFenceDone = 13, // srun -> node: the fence is over; every node's keys, one after another
};

inline constexpr uint32_t kAllTasks = 0xffffffffu;
inline constexpr std::size_t kHeader = 12;
inline constexpr std::size_t kKeyLen = 32;
inline constexpr uint32_t kMaxFrame = 1u << 20;
// A fence's keys (every rank's, in PmiFenceDone) outgrow the 1 MiB of other frames.
inline constexpr uint32_t kMaxFenceFrame = 256u << 20;

struct Header {
    uint8_t type = 0;
    uint32_t task = 0;
    uint32_t len = 0;
};

inline void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}
inline uint32_t get32(const uint8_t *p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// Appends one frame to out.
inline void frame(std::string &out, Type type, uint32_t task, std::string_view data) {
    uint8_t h[kHeader] = {type, 0, 0, 0};
    put32(h + 4, task);
    put32(h + 8, uint32_t(data.size()));
    out.append(reinterpret_cast<const char *>(h), kHeader);
    out.append(data);
}
inline void frame32(std::string &out, Type type, uint32_t task, uint32_t a, uint32_t b = 0,
                    bool two = false) {
    uint8_t d[8];
    put32(d, a);
    put32(d + 4, b);
    frame(out, type, task, {reinterpret_cast<const char *>(d), two ? 8u : 4u});
}

// Reads a header; false when the type is unknown or the length too big.
inline bool parse_header(const uint8_t *p, Header *h) {
    h->type = p[0];
    h->task = get32(p + 4);
    h->len = get32(p + 8);
    bool known =
        (h->type >= Hello && h->type <= PmiAbort) || (h->type >= Stdin && h->type <= PmiFenceDone);
    bool fence = h->type == PmiFence || h->type == PmiFenceDone;
    return known && h->len <= (fence ? kMaxFenceFrame : kMaxFrame) && p[1] == 0 && p[2] == 0 &&
           p[3] == 0;
}

} // namespace drover::stepio
