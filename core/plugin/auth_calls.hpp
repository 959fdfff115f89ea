// auth_calls.hpp - AuthCalls: the core's calls into the auth plugin (drover/auth.h).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <drover/auth.h>

#include "plugin/calls.hpp"

namespace drover::plugin {

// Hashes are SHA-256 digests (32 bytes). Each method's comment ends with what it answers when the
// op is absent.
class AuthCalls : public Calls<drover_auth_ops> {
  public:
    using Calls::Calls;

    // A credential for uid/gid over hash into *cred (at most DROVER_AUTH_CRED_MAX bytes).
    // Absent: ENOENT.
    Status cred_create(uint32_t uid, uint32_t gid, const uint8_t hash[32],
                       std::vector<uint8_t> *cred) const;
    // Checks cred against hash; on success sets *uid and *gid. Absent: ENOENT.
    Status cred_verify(std::span<const uint8_t> cred, const uint8_t hash[32], uint32_t *uid,
                       uint32_t *gid) const;
};

} // namespace drover::plugin
