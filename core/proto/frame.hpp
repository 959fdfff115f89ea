// frame.hpp - the wire frame: a 12-byte header (magic, protocol version, flags, length) and one
// FlatBuffers Envelope, verified before anything reads it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "proto/message_generated.h"

namespace drover::proto {

inline constexpr uint32_t kFrameMagic = 0x44525652;  // "DRVR"
inline constexpr uint16_t kProtocolVersion = 1;
inline constexpr std::size_t kFrameHeaderSize = 12;
inline constexpr uint32_t kMaxFrameBody = 64u << 20;

// Writes the header for a body of `length` bytes (big-endian fields).
void encode_frame_header(uint8_t out[kFrameHeaderSize], uint32_t length);

// Checks a received header. Returns an empty string and sets *length, or a one-line reason
// ("bad magic 0x...", "protocol version 7 not supported", "frame of N bytes exceeds limit").
std::string decode_frame_header(const uint8_t in[kFrameHeaderSize], uint32_t *length);

// A verified inbound frame body. Pointers point into the caller's buffer.
struct Verified {
    const Envelope *envelope = nullptr;
    const Message *message = nullptr;
    std::span<const uint8_t> cred;
    std::span<const uint8_t> body;   // the nested Message bytes the credential covers
};

// Verifies an Envelope and its nested Message with the FlatBuffers verifier. Returns an empty
// string on success, else a one-line reason. Never reads unverified memory.
std::string verify_frame_body(std::span<const uint8_t> data, Verified *out);

// Wraps finished Message bytes and a credential into a complete frame (header + Envelope).
std::vector<uint8_t> make_frame(std::span<const uint8_t> message, std::span<const uint8_t> cred);

// The message type's name for logs ("JobSubmitRequest").
const char *body_name(Body b);

}  // namespace drover::proto
