// rpc.cpp - config loading, message sending and error reporting shared by the commands.
#include "cli/rpc.hpp"

#include <drover/plugin.h>

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <new>
#include <optional>

#include "cli/clusters.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

const Config &cli_config() {
    static std::optional<Config> conf;
    if (!conf) conf = load_config(find_config_path(std::nullopt));
    return *conf;
}

namespace {

std::optional<Config> working; // cli_config() pointed at the working cluster

// SLURM_WORKING_CLUSTER as salloc sets it for an allocation on another cluster: the first three
// of NAME:ADDR:PORT:RPC[:...]. Empty for none, a malformed value or the local cluster.
std::optional<WorkingCluster> working_from_env(const Config &local) {
    const char *env = std::getenv("SLURM_WORKING_CLUSTER");
    if (!env) return std::nullopt;
    auto parts = split(env, ':', true);
    if (parts.size() < 3 || parts[0].empty() || to_lower(parts[0]) == local.cluster_name)
        return std::nullopt;
    auto port = parse_u32(parts[2]);
    if (!port || *port == 0 || *port > 65535) return std::nullopt;
    return WorkingCluster{to_lower(parts[0]), {{parts[1], parts[1]}}, uint16_t(*port)};
}

} // namespace

void set_working_cluster(std::optional<WorkingCluster> c) {
    if (!c) return void(working.reset());
    working = cli_config();
    working->cluster_name = c->name;
    working->controllers = std::move(c->controllers);
    working->slurmctld_port = c->port;
}

const Config &target_config() {
    static bool env_read = false;
    if (!env_read) {
        env_read = true;
        // The store's record names the cluster's controllers (a seal names its receiver); the
        // variable's address serves when the store does not know the cluster.
        if (auto c = working_from_env(cli_config())) {
            bool known = false;
            try {
                known = use_cluster(c->name);
            } catch (const net::NetError &) { // this cluster's controller is away
            }
            if (!known) set_working_cluster(std::move(c));
        }
    }
    return working ? *working : cli_config();
}

namespace {

// Finishes fbb as a Message and sends it to conf's controller.
net::Reply send_to(const Config &conf, flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                   flatbuffers::Offset<void> body, int timeout_ms) {
    fbb.Finish(proto::CreateMessage(fbb, type, body));
    return net::call_controller(conf, {fbb.GetBufferPointer(), fbb.GetSize()},
                                net::socket_signer(conf), timeout_ms);
}

} // namespace

net::Reply call_local_ctld(flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                           flatbuffers::Offset<void> body) {
    return send_to(cli_config(), fbb, type, body, 30000);
}

net::Reply call_ctld(flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                     flatbuffers::Offset<void> body, int timeout_ms) {
    return send_to(target_config(), fbb, type, body, timeout_ms);
}

net::Reply call_ctld_retrying(flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                              flatbuffers::Offset<void> body,
                              const std::function<void(int retry)> &waiting) {
    const Config &conf = target_config();
    fbb.Finish(proto::CreateMessage(fbb, type, body));
    std::span<const uint8_t> message{fbb.GetBufferPointer(), fbb.GetSize()};
    for (int retry = 1;; ++retry) {
        net::Reply reply = net::call_controller(conf, message, net::socket_signer(conf));
        const auto *e = reply.msg->body_as_ErrorResponse();
        if (!e || e->code() != DROVER_EBUSY || retry > kSubmitRetries) return reply;
        waiting(retry);
        struct timespec ts {
            retry, 0
        };
        while (::nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
    }
}

net::Reply call_host(const ControllerHost &host, flatbuffers::FlatBufferBuilder &fbb,
                     proto::Body type, flatbuffers::Offset<void> body, int timeout_ms) {
    const Config &conf = cli_config();
    fbb.Finish(proto::CreateMessage(fbb, type, body));
    return net::call(host.addr.empty() ? host.name : host.addr, conf.slurmctld_port, host.name,
                     {fbb.GetBufferPointer(), fbb.GetSize()}, net::socket_signer(conf), timeout_ms);
}

int guarded(std::string_view prog, const std::function<int()> &fn) {
    try {
        return fn();
    } catch (const ParseError &e) {
        print_error(prog, e.what());
    } catch (const net::RpcError &e) {
        print_error(prog, e.what());
    } catch (const net::NetError &e) {
        print_error(prog, e.what());
    } catch (const std::bad_alloc &) {
        print_error(prog, "out of memory");
    } catch (const std::exception &e) {
        print_error(prog, e.what());
    }
    return 1;
}

int64_t now_seconds() {
    return static_cast<int64_t>(std::time(nullptr));
}

} // namespace drover::cli
