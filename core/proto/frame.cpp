// frame.cpp - frame header and preamble encoding, the seal a credential covers, message
// verification.
#include "proto/frame.hpp"

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace drover::proto {

namespace {
void put_u32(uint8_t *p, uint32_t v) {
    p[0] = uint8_t(v >> 24);
    p[1] = uint8_t(v >> 16);
    p[2] = uint8_t(v >> 8);
    p[3] = uint8_t(v);
}
uint32_t get_u32(const uint8_t *p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

// The smallest preamble: an empty receiver, the digest, an empty credential.
constexpr std::size_t kMinPreamble = 1 + kDigestSize + 2;

bool known_type(uint8_t t) {
    return t > uint8_t(Body::NONE) && t <= uint8_t(Body::MAX);
}
} // namespace

void encode_frame_header(uint8_t out[kFrameHeaderSize], const FrameHeader &h) {
    put_u32(out, kFrameMagic);
    out[4] = uint8_t(kProtocolVersion >> 8);
    out[5] = uint8_t(kProtocolVersion);
    out[6] = uint8_t(h.type);
    out[7] = 0;
    put_u32(out + 8, h.preamble_len);
    put_u32(out + 12, h.body_len);
}

std::string decode_frame_header(const uint8_t in[kFrameHeaderSize], FrameHeader *out,
                                uint32_t max_body) {
    char buf[128];
    uint32_t magic = get_u32(in);
    if (magic != kFrameMagic) {
        std::snprintf(buf, sizeof buf, "bad frame magic 0x%08x", magic);
        return buf;
    }
    uint16_t version = uint16_t((in[4] << 8) | in[5]);
    if (version != kProtocolVersion) {
        std::snprintf(buf, sizeof buf, "protocol version %u not supported (this is %u)", version,
                      kProtocolVersion);
        return buf;
    }
    if (!known_type(in[6])) {
        std::snprintf(buf, sizeof buf, "unknown message type %u", in[6]);
        return buf;
    }
    if (in[7] != 0) {
        std::snprintf(buf, sizeof buf, "unknown frame flags 0x%02x", in[7]);
        return buf;
    }
    FrameHeader h{Body(in[6]), get_u32(in + 8), get_u32(in + 12)};
    if (h.preamble_len < kMinPreamble || h.preamble_len > kMaxPreamble) {
        std::snprintf(buf, sizeof buf, "preamble of %u bytes is outside %zu..%zu", h.preamble_len,
                      kMinPreamble, kMaxPreamble);
        return buf;
    }
    if (h.body_len == 0 || h.body_len > max_body) {
        std::snprintf(buf, sizeof buf, "%s of %u bytes is outside the limit of 1..%u",
                      EnumNameBody(h.type), h.body_len, max_body);
        return buf;
    }
    *out = h;
    return {};
}

std::string decode_preamble(std::span<const uint8_t> in, Preamble *out) {
    if (in.size() < kMinPreamble) return "preamble too short";
    std::size_t to_len = in[0];
    std::size_t pos = 1;
    if (in.size() < pos + to_len + kDigestSize + 2) return "preamble too short for its receiver";
    Preamble p;
    p.to = {reinterpret_cast<const char *>(in.data() + pos), to_len};
    pos += to_len;
    p.digest = in.subspan(pos, kDigestSize);
    pos += kDigestSize;
    std::size_t cred_len = (std::size_t(in[pos]) << 8) | in[pos + 1];
    pos += 2;
    if (in.size() != pos + cred_len) return "preamble length does not match its credential";
    p.cred = in.subspan(pos, cred_len);
    *out = p;
    return {};
}

std::vector<uint8_t> seal_input(Body type, uint32_t body_len, std::string_view to,
                                std::span<const uint8_t> digest) {
    static constexpr char kTag[] = "drover frame seal v2";
    std::vector<uint8_t> out(sizeof kTag + 1 + 4 + 1 + to.size() + digest.size());
    uint8_t *p = out.data();
    std::memcpy(p, kTag, sizeof kTag); // with its NUL: the tag ends where the fields begin
    p += sizeof kTag;
    *p++ = uint8_t(type);
    put_u32(p, body_len);
    p += 4;
    *p++ = uint8_t(to.size());
    std::memcpy(p, to.data(), to.size());
    p += to.size();
    std::memcpy(p, digest.data(), digest.size());
    return out;
}

std::string verify_message(std::span<const uint8_t> body, Body announced, const Message **out) {
    // The body size limit bounds the work; the table limit only has to admit the largest reply
    // (a JobInfoResponse for every job the controller holds).
    flatbuffers::Verifier verifier(body.data(), body.size(), 64, 50'000'000);
    if (!verifier.VerifyBuffer<Message>(nullptr)) return "malformed message";
    const Message *msg = flatbuffers::GetRoot<Message>(body.data());
    if (msg->body_type() == Body::NONE) return "message body has no type";
    if (msg->body_type() != announced)
        return "message is a " + body_name(msg->body_type()) + " but its frame announced a " +
               body_name(announced);
    *out = msg;
    return {};
}

Body message_type(std::span<const uint8_t> message) {
    return flatbuffers::GetRoot<Message>(message.data())->body_type();
}

std::vector<uint8_t> make_frame(std::span<const uint8_t> message, std::string_view to,
                                std::span<const uint8_t> digest, std::span<const uint8_t> cred) {
    if (to.size() > kMaxReceiver)
        throw std::invalid_argument("receiver name too long: " + std::string(to));
    if (digest.size() != kDigestSize) throw std::invalid_argument("digest must be 32 bytes");
    std::size_t preamble = 1 + to.size() + kDigestSize + 2 + cred.size();
    if (preamble > kMaxPreamble) throw std::invalid_argument("credential too long for a frame");
    std::vector<uint8_t> out(kFrameHeaderSize + preamble + message.size());
    encode_frame_header(out.data(),
                        {message_type(message), uint32_t(preamble), uint32_t(message.size())});
    uint8_t *p = out.data() + kFrameHeaderSize;
    *p++ = uint8_t(to.size());
    std::memcpy(p, to.data(), to.size());
    p += to.size();
    std::memcpy(p, digest.data(), kDigestSize);
    p += kDigestSize;
    *p++ = uint8_t(cred.size() >> 8);
    *p++ = uint8_t(cred.size());
    if (!cred.empty()) std::memcpy(p, cred.data(), cred.size());
    p += cred.size();
    if (!message.empty()) std::memcpy(p, message.data(), message.size());
    return out;
}

std::string body_name(Body b) {
    if (!known_type(uint8_t(b))) return "message type " + std::to_string(unsigned(b));
    return EnumNameBody(b);
}

} // namespace drover::proto
