// rpc.hpp - the commands' one way to the controller: load the config, build, send, and turn
// config and transport failures and refused requests into Slurm-style error lines.
#pragma once

#include <functional>
#include <optional>
#include <vector>
#include <string>
#include <string_view>

#include "cli/text.hpp"
#include "common/config.hpp"
#include "net/client.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

// The configuration, loaded on first use. Throws drover::ParseError.
const Config &cli_config();

// Another cluster of the accounting store that the calls below go to instead of the local one
// (-M, or SLURM_WORKING_CLUSTER=NAME:ADDR:PORT:RPC in a job of another cluster's allocation).
struct WorkingCluster {
    std::string name;
    std::vector<ControllerHost> controllers;
    uint16_t port = 0;
};
void set_working_cluster(std::optional<WorkingCluster> c);
// The configuration the calls use: cli_config() with the working cluster's name, controllers
// and port when there is one.
const Config &target_config();

// Sends to the local cluster's controller whatever the working cluster is (the store's
// clusters are asked there).
net::Reply call_local_ctld(flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                           flatbuffers::Offset<void> body);

// Finishes fbb as a Message with this body and sends it to the controller.
// Throws net::NetError, and drover::ParseError for a bad config.
net::Reply call_ctld(flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                     flatbuffers::Offset<void> body, int timeout_ms = 30000);

// A submission the controller refuses for now (ErrorResponse code DROVER_EBUSY: MaxJobCount is
// reached) is sent again, as Slurm's sbatch and salloc do: after 1, 2, ... kSubmitRetries
// seconds (two minutes in all), then the refusal stands.
inline constexpr int kSubmitRetries = 15;
inline constexpr const char *kSubmitRetryText =
    "Slurm temporarily unable to accept job, sleeping and retrying.";

// As call_ctld, but while the controller refuses the request for now, calls waiting(n) before
// the n-th retry (n = 1, 2, ...), sleeps n seconds and sends the same request again, at most
// kSubmitRetries times. The reply it returns may still be the refusal (reply.as<> throws it).
net::Reply call_ctld_retrying(flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                              flatbuffers::Offset<void> body,
                              const std::function<void(int retry)> &waiting);

// Sends the request and reads the answer as a Response, which points into reply. When the
// controller refuses (an ErrorResponse), hands the net::RpcError to report and returns nullptr.
// Throws as call_ctld does otherwise.
template <class Response, class Report>
const Response *ask_ctld(net::Reply &reply, flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                         flatbuffers::Offset<void> body, const Report &report) {
    try {
        reply = call_ctld(fbb, type, body);
        return reply.as<Response>();
    } catch (const net::RpcError &e) {
        report(e);
        return nullptr;
    }
}

// A report for ask_ctld that writes "<prefix><message>\n" to stderr, as Slurm's slurm_perror.
inline auto error_line(std::string prefix) {
    return [prefix = std::move(prefix)](const net::RpcError &e) {
        write_err(prefix + e.what() + "\n");
    };
}

// Sends to one controller host only (scontrol ping).
net::Reply call_host(const ControllerHost &host, flatbuffers::FlatBufferBuilder &fbb,
                     proto::Body type, flatbuffers::Offset<void> body, int timeout_ms);

// Runs fn; a config error, transport error or unhandled RPC error becomes
// "<prog>: error: <message>" and exit status 1.
int guarded(std::string_view prog, const std::function<int()> &fn);

// The current time, seconds since the epoch.
int64_t now_seconds();

// The time a reply was stamped with by the controller, or ours when it carries none (0).
inline int64_t reply_time(int64_t stamped) {
    return stamped ? stamped : now_seconds();
}

} // namespace drover::cli
