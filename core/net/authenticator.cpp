// authenticator.cpp - credentials through the auth plugin's operations table. The plugin signs a
// 32-byte hash: of a step credential's bytes, or of a frame's seal.
#include "net/authenticator.hpp"

#include <algorithm>

#include <openssl/sha.h>
#include <unistd.h>

namespace drover::net {

void sha256(std::span<const uint8_t> data, uint8_t out[32]) {
    SHA256(data.data(), data.size(), out);
}

bool matches_digest(std::span<const uint8_t> body, std::span<const uint8_t> digest) {
    proto::Digest got;
    sha256(body, got.data());
    return digest.size() == got.size() && std::equal(got.begin(), got.end(), digest.begin());
}

std::vector<uint8_t> Authenticator::sign_hash(const uint8_t hash[32], uint32_t uid,
                                              uint32_t gid) const {
    std::vector<uint8_t> cred;
    if (Status s = auth_.cred_create(uid, gid, hash, &cred); !s.ok())
        throw NetError("cannot sign message: " + s.text());
    return cred;
}

std::string Authenticator::verify_hash(std::span<const uint8_t> cred, const uint8_t hash[32],
                                       uint32_t *uid, uint32_t *gid) const {
    // Peers are told the plugin's own reason, not which plugin or operation gave it.
    Status s = auth_.cred_verify(cred, hash, uid, gid);
    return std::string(s.reason());
}

std::vector<uint8_t> Authenticator::sign(std::span<const uint8_t> data, uint32_t uid,
                                         uint32_t gid) const {
    uint8_t hash[32];
    sha256(data, hash);
    return sign_hash(hash, uid, gid);
}

std::vector<uint8_t> Authenticator::sign_as_self(std::span<const uint8_t> data) const {
    return sign(data, uint32_t(::getuid()), uint32_t(::getgid()));
}

std::string Authenticator::verify(std::span<const uint8_t> cred, std::span<const uint8_t> data,
                                  uint32_t *uid, uint32_t *gid) const {
    uint8_t hash[32];
    sha256(data, hash);
    return verify_hash(cred, hash, uid, gid);
}

std::vector<uint8_t> Authenticator::sign_seal(proto::Body type, uint32_t body_len,
                                              std::string_view to, std::span<const uint8_t> digest,
                                              uint32_t uid, uint32_t gid) const {
    return sign(proto::seal_input(type, body_len, to, digest), uid, gid);
}

Seal Authenticator::seal_as_self(std::span<const uint8_t> message, std::string_view to) const {
    Seal seal;
    sha256(message, seal.digest.data());
    seal.cred = sign_seal(proto::message_type(message), uint32_t(message.size()), to, seal.digest,
                          uint32_t(::getuid()), uint32_t(::getgid()));
    return seal;
}

Signer Authenticator::self_signer() const {
    return [this](std::span<const uint8_t> m, std::string_view to) { return seal_as_self(m, to); };
}

std::string Authenticator::verify_seal(proto::Body type, uint32_t body_len, std::string_view to,
                                       std::span<const uint8_t> digest,
                                       std::span<const uint8_t> cred, uint32_t *uid,
                                       uint32_t *gid) const {
    return verify(cred, proto::seal_input(type, body_len, to, digest), uid, gid);
}

} // namespace drover::net

namespace drover::net {

ReplyCheck admin_reply_check(const Authenticator &auth, std::function<bool(uint32_t)> is_admin) {
    return [&auth, is_admin = std::move(is_admin)](const proto::FrameHeader &h,
                                                   const proto::Preamble &p,
                                                   std::span<const uint8_t> body) -> std::string {
        if (!matches_digest(body, p.digest)) return "body does not match its digest";
        uint32_t uid = 0, gid = 0;
        std::string err = auth.verify_seal(h.type, h.body_len, p.to, p.digest, p.cred, &uid, &gid);
        if (!err.empty()) return err;
        if (!p.to.empty()) return "a reply addressed to '" + std::string(p.to) + "'";
        if (!is_admin(uid))
            return "sent by uid " + std::to_string(uid) + ", not by a Drover daemon";
        return {};
    };
}

} // namespace drover::net
