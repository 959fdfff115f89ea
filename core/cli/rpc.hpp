// rpc.hpp - the commands' one way to the controller: load the config, build, send, and turn
// config and transport failures into Slurm-style error lines.
#pragma once

#include <functional>
#include <string_view>

#include "common/config.hpp"
#include "net/client.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

// The configuration, loaded on first use. Throws drover::ParseError.
const Config &cli_config();

// Finishes fbb as a Message with this body and sends it to the controller.
// Throws net::NetError, and drover::ParseError for a bad config.
net::Reply call_ctld(flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                     flatbuffers::Offset<void> body, int timeout_ms = 30000);

// Sends to one controller host only (scontrol ping).
net::Reply call_host(const ControllerHost &host, flatbuffers::FlatBufferBuilder &fbb,
                     proto::Body type, flatbuffers::Offset<void> body, int timeout_ms);

// Runs fn; a config error, transport error or unhandled RPC error becomes
// "<prog>: error: <message>" and exit status 1.
int guarded(std::string_view prog, const std::function<int()> &fn);

// The current time, seconds since the epoch.
int64_t now_seconds();

}  // namespace drover::cli
