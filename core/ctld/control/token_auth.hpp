// token_auth.hpp - AuthAltTypes=auth/jwt in the controller: JSON Web Tokens (HS256, keyed by
// AuthAltParameters=jwt_key=PATH) name the user a request runs as, whoever carried it (drover-restd
// passes its clients' tokens on), and `scontrol token` mints them.
//
// As in Slurm, the controller alone holds the key and checks tokens: the REST daemon needs neither
// the key nor any privilege of its own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace drover {
struct Config;
}
namespace drover::net {
struct Peer;
}

namespace drover::ctld {

// Slurm's lifespan for `scontrol token` without lifespan=.
inline constexpr uint32_t kDefaultTokenLifespan = 1800;

class TokenAuth {
  public:
    // Reads the key when AuthAltTypes names auth/jwt; throws std::runtime_error naming the file
    // when it cannot (a controller configured for tokens must not start without its key).
    TokenAuth(const Config &conf, uint32_t slurm_uid);

    bool enabled() const { return !key_.empty(); }

    // The request carried token (and user, X-SLURM-USER-NAME, when given): on success peer
    // becomes that user. Without a token, user names the user a root or SlurmUser peer acts for
    // (drover-restd's rest_auth/local). An error (net::kTokenRefused) says why it is refused.
    Status admit(std::string_view token, std::string_view user, int64_t now, net::Peer &peer) const;

    // `scontrol token`: a token for the caller, or for username when the caller is root or
    // SlurmUser; lifespan 0 takes the default.
    Status mint(uint32_t caller, std::string_view username, uint32_t lifespan, int64_t now,
                std::string *token) const;

  private:
    bool is_admin(uint32_t uid) const { return uid == 0 || uid == slurm_uid_; }
    std::string key_;
    uint32_t slurm_uid_;
};

} // namespace drover::ctld
