// authenticator.hpp - signs outbound and checks inbound messages with the loaded auth plugin.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "net/client.hpp"
#include "plugin/plugin_set.hpp"

namespace drover::net {

class Authenticator {
  public:
    explicit Authenticator(const plugin::Bound<drover_auth_ops> &auth) : auth_(auth) {}

    // A credential for message as uid/gid. Throws NetError when the plugin refuses.
    std::vector<uint8_t> sign(std::span<const uint8_t> message, uint32_t uid, uint32_t gid) const;
    // A credential as this process's own uid/gid.
    std::vector<uint8_t> sign_as_self(std::span<const uint8_t> message) const;
    // A Signer for net::call that signs as this process.
    Signer self_signer() const;

    // Checks cred against body. Returns an empty string and sets uid/gid, or the reason.
    std::string verify(std::span<const uint8_t> cred, std::span<const uint8_t> body, uint32_t *uid,
                       uint32_t *gid) const;

  private:
    const plugin::Bound<drover_auth_ops> &auth_;
};

// SHA-256 of data.
void sha256(std::span<const uint8_t> data, uint8_t out[32]);

}  // namespace drover::net
