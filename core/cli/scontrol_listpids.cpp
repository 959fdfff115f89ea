// scontrol_listpids.cpp - scontrol listpids: asks one node daemon for its steps' processes.
#include <unistd.h>

#include "cli/rpc.hpp"
#include "cli/scontrol_pids.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "net/client.hpp"

namespace drover::cli {

namespace {

// This host's node: the first of slurm.conf's whose NodeHostname (or name) is this host's name,
// with or without its domain.
std::optional<std::string> local_node(const Config &conf) {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) return std::nullopt;
    std::string full = host, short_name = full.substr(0, full.find('.'));
    for (const auto &n : conf.nodes) {
        const std::string &h = conf.node_hostname(n);
        if (h == full || h == short_name || n.name == full || n.name == short_name) return n.name;
    }
    return std::nullopt;
}

} // namespace

int list_pids(std::span<const std::string> rest) {
    const Config &conf = cli_config();
    PidsTarget t;
    try {
        t = parse_pids_target(rest.empty() ? "" : rest[0]);
    } catch (const ParseError &e) {
        write_err(std::string(e.what()) + "\n");
        return 1;
    }
    std::optional<std::string> node = rest.size() > 1 ? rest[1] : local_node(conf);
    const NodeConf *nc = node ? conf.find_node(*node) : nullptr;
    if (!nc) {
        print_error("scontrol", node ? "Invalid node name specified: " + *node
                                     : "this host is no node of " + conf.path +
                                           " (name one: listpids JOBID NODENAME)");
        return 1;
    }
    flatbuffers::FlatBufferBuilder q(64);
    q.Finish(proto::CreateMessage(q, proto::Body::StepPidsRequest,
                                  proto::CreateStepPidsRequest(q, t.job_id, t.step_id).Union()));
    net::Reply rep = net::call(conf.node_addr(*nc), conf.node_port(*nc), nc->name,
                               {q.GetBufferPointer(), q.GetSize()}, net::socket_signer(conf),
                               int(conf.message_timeout) * 1000);
    const auto *r = rep.as<proto::StepPidsResponse>();
    write_out(listpids_text(*r));
    if (auto why = listpids_empty(*r, t, nc->name)) {
        write_err(*why + "\n");
        return 1;
    }
    return 0;
}

} // namespace drover::cli
