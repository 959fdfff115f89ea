// authenticator.hpp - seals outbound and checks inbound frames, and signs step credentials, with
// the loaded auth plugin.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "net/client.hpp"
#include "plugin/auth_calls.hpp"

namespace drover::net {

class Authenticator {
  public:
    // OWNERSHIP: the plugin behind auth (a PluginSet's) must outlive the authenticator.
    explicit Authenticator(plugin::AuthCalls auth) : auth_(auth) {}

    // A credential over data as uid/gid (step credentials). Throws NetError when the plugin
    // refuses.
    std::vector<uint8_t> sign(std::span<const uint8_t> data, uint32_t uid, uint32_t gid) const;
    std::vector<uint8_t> sign_as_self(std::span<const uint8_t> data) const;
    // Checks cred against data. Returns an empty string and sets uid/gid, or the reason.
    std::string verify(std::span<const uint8_t> cred, std::span<const uint8_t> data, uint32_t *uid,
                       uint32_t *gid) const;

    // A credential over a frame's seal (proto::seal_input) as uid/gid.
    std::vector<uint8_t> sign_seal(proto::Body type, uint32_t body_len, std::string_view to,
                                   std::span<const uint8_t> digest, uint32_t uid,
                                   uint32_t gid) const;
    // Seals a finished Message for to, as this process's own uid/gid.
    Seal seal_as_self(std::span<const uint8_t> message, std::string_view to) const;
    // A Signer for net::call that seals as this process.
    Signer self_signer() const;
    // Checks a frame's credential against its seal. Returns an empty string and sets uid/gid, or
    // the reason.
    std::string verify_seal(proto::Body type, uint32_t body_len, std::string_view to,
                            std::span<const uint8_t> digest, std::span<const uint8_t> cred,
                            uint32_t *uid, uint32_t *gid) const;

  private:
    std::vector<uint8_t> sign_hash(const uint8_t hash[32], uint32_t uid, uint32_t gid) const;
    std::string verify_hash(std::span<const uint8_t> cred, const uint8_t hash[32], uint32_t *uid,
                            uint32_t *gid) const;

    plugin::AuthCalls auth_;
};

// The reply check of a daemon (net::set_reply_check): a reply's body must match its digest, its
// credential must hold over its seal (for the empty receiver) and be an administrator's (root or
// SlurmUser): only another daemon answers a daemon.
ReplyCheck admin_reply_check(const Authenticator &auth, std::function<bool(uint32_t)> is_admin);

// SHA-256 of data.
void sha256(std::span<const uint8_t> data, uint8_t out[32]);
// Whether body's SHA-256 is digest (a frame's preamble names it; the credential covers it).
bool matches_digest(std::span<const uint8_t> body, std::span<const uint8_t> digest);

} // namespace drover::net
