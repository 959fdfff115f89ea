// step_cred.hpp - job step credentials: the controller signs what a step may do (StepCred), and a
// node daemon checks the signature, the expiry, the requester and the node before it launches
// anything (the design paper's job credential).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "proto/message_generated.h"

namespace drover::net {

class Authenticator;

// Wraps a finished StepCred buffer in a SignedCred, signed as this process (SlurmUser or root).
std::vector<uint8_t> sign_step_cred(const Authenticator &auth, std::span<const uint8_t> cred);

// Credentials whose signature this process has checked, until they expire: the auth plugin spends
// a signature once (replay), but one process may host several nodes a step runs on (--emulate).
class CheckedCreds {
  public:
    bool seen(const std::string &key, int64_t now);
    void add(std::string key, int64_t expires);

  private:
    std::map<std::string, int64_t> expiry_;
};

// A checked StepCred, copied out of its SignedCred: inside the message the nested body is only
// as aligned as a byte vector (4), and the credential's 8-byte fields must be read aligned.
class StepCredCopy {
  public:
    void assign(std::span<const uint8_t> body);
    const proto::StepCred *get() const;

  private:
    std::vector<uint64_t> words_; // 8-aligned storage for the body's bytes
};

// Checks a SignedCred sent by requester_uid for a launch on node at time now. Returns OK with the
// credential copied into *out, or DROVER_EPERM saying why it is refused: a bad or forged
// signature, a signer that is not an administrator, expiry, another user's credential, or
// another node.
// A credential of the other kind (a broadcast's for a launch, or a launch's for a broadcast:
// bcast says which is wanted) is refused before its signature is spent.
Status check_step_cred(const Authenticator &auth, std::span<const uint8_t> signed_cred,
                       const std::function<bool(uint32_t)> &is_admin, uint32_t requester_uid,
                       const std::string &node, int64_t now, StepCredCopy *out,
                       CheckedCreds *checked = nullptr, bool bcast = false);

} // namespace drover::net
