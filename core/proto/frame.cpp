// frame.cpp - frame header encoding and envelope verification.
#include "proto/frame.hpp"

#include <cstdio>

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
}  // namespace

void encode_frame_header(uint8_t out[kFrameHeaderSize], uint32_t length) {
    put_u32(out, kFrameMagic);
    out[4] = uint8_t(kProtocolVersion >> 8);
    out[5] = uint8_t(kProtocolVersion);
    out[6] = 0;
    out[7] = 0;
    put_u32(out + 8, length);
}

std::string decode_frame_header(const uint8_t in[kFrameHeaderSize], uint32_t *length) {
    char buf[96];
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
    uint32_t len = get_u32(in + 8);
    if (len == 0 || len > kMaxFrameBody) {
        std::snprintf(buf, sizeof buf, "frame of %u bytes is outside 1..%u", len, kMaxFrameBody);
        return buf;
    }
    *length = len;
    return {};
}

std::string verify_frame_body(std::span<const uint8_t> data, Verified *out) {
    // One pass checks the envelope and, through its nested_flatbuffer field, the message in it.
    // The frame size limit bounds the work; the table limit only has to admit the largest reply
    // (a JobInfoResponse for every job the controller holds).
    flatbuffers::Verifier verifier(data.data(), data.size(), 64, 50'000'000);
    if (!verifier.VerifyBuffer<Envelope>(nullptr)) return "malformed envelope or message";
    const Envelope *env = GetEnvelope(data.data());
    if (!env->cred() || env->cred()->size() == 0) return "message carries no credential";
    if (!env->body() || env->body()->size() == 0) return "message has no body";
    const auto *body = env->body();
    const Message *msg = flatbuffers::GetRoot<Message>(body->data());
    if (msg->body_type() == Body::NONE) return "message body has no type";
    out->envelope = env;
    out->message = msg;
    out->cred = {env->cred()->data(), env->cred()->size()};
    out->body = {body->data(), body->size()};
    return {};
}

std::vector<uint8_t> make_frame(std::span<const uint8_t> message, std::span<const uint8_t> cred) {
    flatbuffers::FlatBufferBuilder fbb(message.size() + cred.size() + 64);
    auto c = fbb.CreateVector(cred.data(), cred.size());
    fbb.ForceVectorAlignment(message.size(), 1, 8);  // keep the nested buffer's alignment
    auto b = fbb.CreateVector(message.data(), message.size());
    fbb.Finish(CreateEnvelope(fbb, c, b));
    std::vector<uint8_t> out(kFrameHeaderSize + fbb.GetSize());
    encode_frame_header(out.data(), uint32_t(fbb.GetSize()));
    std::copy(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize(),
              out.begin() + kFrameHeaderSize);
    return out;
}

const char *body_name(Body b) { return EnumNameBody(b); }

}  // namespace drover::proto
