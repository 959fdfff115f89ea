// frame.hpp - the wire frame: a fixed header, a small preamble that says who sent the frame and
// to whom, and one FlatBuffers Message.
//
//   header    16 bytes, big-endian: magic "DRVR" u32 | protocol version u16 | body type u8 |
//             flags u8 (0) | preamble length u32 | body length u32
//   preamble  receiver length u8 | receiver | SHA-256 of the body (32 bytes) |
//             credential length u16 | credential
//   body      the Message
//
// The credential signs the seal: the body's type, length and digest and the receiver's name
// (seal_input). A daemon therefore knows who sent a frame, and that the frame was meant for it,
// from at most kFrameHeaderSize + kMaxPreamble bytes: it allocates the body only for a peer that
// has proved who it is, and only up to the limit for that type of message. Then it checks the
// body against the digest and verifies it before anything reads it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proto/message_generated.h"

namespace drover::proto {

inline constexpr uint32_t kFrameMagic = 0x44525652; // "DRVR"
inline constexpr uint16_t kProtocolVersion = 2;
inline constexpr std::size_t kFrameHeaderSize = 16;
inline constexpr std::size_t kMaxPreamble = 1024;
inline constexpr std::size_t kMaxReceiver = 255;
inline constexpr std::size_t kDigestSize = 32;
inline constexpr uint32_t kMaxFrameBody = 1u << 30; // a reply listing every job; a 512 MiB script

using Digest = std::array<uint8_t, kDigestSize>;

struct FrameHeader {
    Body type = Body::NONE;
    uint32_t preamble_len = 0;
    uint32_t body_len = 0;
};

// Writes the header of a frame.
void encode_frame_header(uint8_t out[kFrameHeaderSize], const FrameHeader &h);

// Checks a received header: magic, version, a known body type, a preamble length that can hold
// a preamble and is at most kMaxPreamble, a body of 1..max_body bytes. Returns an empty string and
// fills *out, or a one-line reason ("bad frame magic 0x...", "JobSubmitRequest of N bytes exceeds
// the limit of M").
std::string decode_frame_header(const uint8_t in[kFrameHeaderSize], FrameHeader *out,
                                uint32_t max_body = kMaxFrameBody);

// A parsed preamble. Views point into the caller's buffer.
struct Preamble {
    std::string_view to;
    std::span<const uint8_t> digest; // kDigestSize bytes
    std::span<const uint8_t> cred;
};

// Parses a preamble of exactly in.size() bytes. Returns an empty string or the reason.
std::string decode_preamble(std::span<const uint8_t> in, Preamble *out);

// The bytes a credential covers (the signer hashes them): a domain tag, the body's type and
// length, the receiver and the body's digest.
std::vector<uint8_t> seal_input(Body type, uint32_t body_len, std::string_view to,
                                std::span<const uint8_t> digest);

// Verifies a Message with the FlatBuffers verifier and checks that its body type is the one the
// header announced. Returns an empty string and sets *out, or the reason. Never reads unverified
// memory.
std::string verify_message(std::span<const uint8_t> body, Body announced, const Message **out);

// The body type of a finished Message built by this process.
Body message_type(std::span<const uint8_t> message);

// A complete frame (header, preamble, body) for a finished Message, its receiver, its digest
// and its credential. Throws std::invalid_argument when the receiver or credential is too long.
std::vector<uint8_t> make_frame(std::span<const uint8_t> message, std::string_view to,
                                std::span<const uint8_t> digest, std::span<const uint8_t> cred);

// The message type's name for logs ("JobSubmitRequest"); "type N" for an unknown one.
std::string body_name(Body b);

} // namespace drover::proto
