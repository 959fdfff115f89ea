// auth_calls.cpp - AuthCalls: NULL checks, buffers and Status for the auth plugin.
#include "plugin/auth_calls.hpp"

namespace drover::plugin {

Status AuthCalls::cred_create(uint32_t uid, uint32_t gid, const uint8_t hash[32],
                              std::vector<uint8_t> *cred) const {
    cred->clear();
    if (!ops().cred_create) return absent("cred_create");
    cred->resize(DROVER_AUTH_CRED_MAX);
    uint32_t len = uint32_t(cred->size());
    drover_error err{};
    const auto timing = timed("cred_create");
    Status s = status(ops().cred_create(state(), uid, gid, hash, cred->data(), &len, &err), err,
                      "cred_create");
    // A plugin may not claim more than the buffer it was given.
    cred->resize(s.ok() && len <= DROVER_AUTH_CRED_MAX ? len : 0);
    return s;
}

Status AuthCalls::cred_verify(std::span<const uint8_t> cred, const uint8_t hash[32], uint32_t *uid,
                              uint32_t *gid) const {
    if (!ops().cred_verify) return absent("cred_verify");
    drover_error err{};
    const auto timing = timed("cred_verify");
    return status(
        ops().cred_verify(state(), cred.data(), uint32_t(cred.size()), hash, uid, gid, &err), err,
        "cred_verify");
}

} // namespace drover::plugin
