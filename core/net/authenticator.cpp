// authenticator.cpp - message credentials through the auth plugin's operations table.
#include "net/authenticator.hpp"

#include <openssl/sha.h>
#include <unistd.h>

namespace drover::net {

void sha256(std::span<const uint8_t> data, uint8_t out[32]) { SHA256(data.data(), data.size(), out); }

std::vector<uint8_t> Authenticator::sign(std::span<const uint8_t> message, uint32_t uid,
                                         uint32_t gid) const {
    uint8_t hash[32];
    sha256(message, hash);
    std::vector<uint8_t> cred(DROVER_AUTH_CRED_MAX);
    uint32_t len = uint32_t(cred.size());
    drover_error err{};
    int rc = auth_.ops.cred_create(auth_.state, uid, gid, hash, cred.data(), &len, &err);
    if (rc != DROVER_OK) throw NetError(std::string("cannot sign message: ") + err.text);
    cred.resize(len);
    return cred;
}

std::vector<uint8_t> Authenticator::sign_as_self(std::span<const uint8_t> message) const {
    return sign(message, uint32_t(::getuid()), uint32_t(::getgid()));
}

Signer Authenticator::self_signer() const {
    return [this](std::span<const uint8_t> m) { return sign_as_self(m); };
}

std::string Authenticator::verify(std::span<const uint8_t> cred, std::span<const uint8_t> body,
                                  uint32_t *uid, uint32_t *gid) const {
    uint8_t hash[32];
    sha256(body, hash);
    drover_error err{};
    int rc = auth_.ops.cred_verify(auth_.state, cred.data(), uint32_t(cred.size()), hash, uid, gid,
                                   &err);
    if (rc != DROVER_OK) return err.text[0] ? err.text : "credential refused";
    return {};
}

}  // namespace drover::net
