// rpc.cpp - config loading, message sending and error reporting shared by the commands.
#include "cli/rpc.hpp"

#include <drover/plugin.h>

#include <cerrno>
#include <ctime>
#include <new>
#include <optional>

#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

const Config &cli_config() {
    static std::optional<Config> conf;
    if (!conf) conf = load_config(find_config_path(std::nullopt));
    return *conf;
}

net::Reply call_ctld(flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                     flatbuffers::Offset<void> body, int timeout_ms) {
    const Config &conf = cli_config();
    fbb.Finish(proto::CreateMessage(fbb, type, body));
    return net::call_controller(conf, {fbb.GetBufferPointer(), fbb.GetSize()},
                                net::socket_signer(conf), timeout_ms);
}

net::Reply call_ctld_retrying(flatbuffers::FlatBufferBuilder &fbb, proto::Body type,
                              flatbuffers::Offset<void> body,
                              const std::function<void(int retry)> &waiting) {
    const Config &conf = cli_config();
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
