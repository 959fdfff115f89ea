// step_cred.hpp - job step credentials: the controller signs what a step may do (StepCred), and a
// node daemon checks the signature, the expiry, the requester and the node before it launches
// anything (the design paper's job credential).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "proto/message_generated.h"

namespace drover::net {

class Authenticator;

// Wraps a finished StepCred buffer in a SignedCred, signed as this process (SlurmUser or root).
std::vector<uint8_t> sign_step_cred(const Authenticator &auth, std::span<const uint8_t> cred);

// Checks a SignedCred sent by requester_uid for a launch on node at time now. Returns an empty
// string and points *out into signed_cred, or says why it is refused: a bad or forged signature,
// a signer that is not an administrator, expiry, another user's credential, or another node.
std::string check_step_cred(const Authenticator &auth, std::span<const uint8_t> signed_cred,
                            const std::function<bool(uint32_t)> &is_admin, uint32_t requester_uid,
                            const std::string &node, int64_t now, const proto::StepCred **out);

}  // namespace drover::net
