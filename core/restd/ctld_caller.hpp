// ctld_caller.hpp - drover-restd's requests to the controller, each carrying the identity of the
// HTTP client it serves: its token (the controller checks it and runs the request as the token's
// user), or, in rest_auth/local mode, the user name of the process on the UNIX socket (honoured
// only because this daemon then runs as root or SlurmUser).
#pragma once

#include <string>

#include "common/config.hpp"
#include "net/client.hpp"
#include "proto/message_generated.h"

namespace drover::restd {

struct Identity {
    std::string token; // X-SLURM-USER-TOKEN or Authorization: Bearer
    std::string user;  // X-SLURM-USER-NAME, or the local client's user name
};

class CtldCaller {
  public:
    explicit CtldCaller(const Config &conf) : conf_(conf) {}

    // Finishes fbb as a Message with this body for who and sends it. Throws net::NetError.
    net::Reply call(flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                    flatbuffers::Offset<void> body, const Identity &who) const;

    const Config &conf() const { return conf_; }

  private:
    const Config &conf_;
};

} // namespace drover::restd
