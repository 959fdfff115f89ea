// scontrol_reboot.cpp - scontrol reboot and cancel_reboot: one NodeRebootRequest each.
#include "cli/scontrol_reboot.hpp"

#include "cli/reboot_args.hpp"
#include "cli/rpc.hpp"
#include "cli/text.hpp"
#include "common/config.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

bool send(const RebootArgs &a, bool cancel, const std::string &error_prefix) {
    flatbuffers::FlatBufferBuilder fbb(128);
    auto req = proto::CreateNodeRebootRequestDirect(
        fbb, a.nodes.c_str(), a.asap, a.next_state.empty() ? nullptr : a.next_state.c_str(),
        a.reason.empty() ? nullptr : a.reason.c_str(), cancel);
    net::Reply reply;
    auto report = [&](const net::RpcError &e) { write_err(error_prefix + e.what() + "\n"); };
    return ask_ctld<proto::OkResponse>(reply, fbb, proto::Body::NodeRebootRequest, req.Union(),
                                       report) != nullptr;
}

} // namespace

int reboot_nodes(std::span<const std::string> words) {
    RebootArgs a;
    try {
        a = parse_reboot(words);
    } catch (const ParseError &e) {
        write_err(std::string(e.what()) + "\n");
        return 1;
    }
    // As Slurm's scontrol, which reads RebootProgram from its own slurm.conf first.
    if (!cli_config().raw.count("rebootprogram")) {
        print_error("scontrol", "RebootProgram isn't defined");
        write_err("scontrol_reboot_nodes error: Unspecified error\n");
        return 1;
    }
    return send(a, false, "scontrol_reboot_nodes error: ") ? 0 : 1;
}

int cancel_reboot(std::span<const std::string> words) {
    if (words.size() != 1) {
        write_err(std::string(words.empty() ? "missing" : "too many") + " argument" +
                  (words.empty() ? "" : "s") + " for keyword:cancel_reboot\n");
        return 1;
    }
    RebootArgs a;
    a.nodes = words.front();
    return send(a, true, "slurm_update error: ") ? 0 : 1;
}

} // namespace drover::cli
