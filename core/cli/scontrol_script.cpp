// scontrol_script.cpp - scontrol write batch_script.
#include "cli/scontrol_script.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "cli/rpc.hpp"
#include "cli/text.hpp"

namespace drover::cli {

namespace {

// The script of job_id, or an exception (net::RpcError with the controller's reason).
std::string fetch_script(uint32_t job_id) {
    flatbuffers::FlatBufferBuilder fbb(64);
    auto req = proto::CreateJobScriptRequest(fbb, job_id);
    net::Reply reply = call_ctld(fbb, proto::Body::JobScriptRequest, req.Union());
    const auto *r = reply.as<proto::JobScriptResponse>();
    return r->script() ? r->script()->str() : std::string();
}

} // namespace

int write_batch_script(std::span<const std::string> rest, bool quiet) {
    if (rest.empty()) {
        write_err("too few arguments for keyword:write batch_script\n");
        return 1;
    }
    auto id = parse_u32(rest[0]);
    if (!id || *id == 0) {
        write_err("job script retrieval failed: Invalid job id specified\n");
        return 1;
    }
    std::string file = rest.size() > 1 ? rest[1] : "slurm-" + rest[0] + ".sh";
    std::string script;
    try {
        script = fetch_script(*id);
    } catch (const std::exception &e) {
        write_err(std::string("job script retrieval failed: ") + e.what() + "\n");
        return 1;
    }
    if (file == "-") {
        write_out(script);
        return 0;
    }
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!(out << script) || !out.flush()) {
        write_err("failed to open file `" + file + "`: " + std::strerror(errno) + "\n");
        return 1;
    }
    if (!quiet) write_out("batch script for job " + rest[0] + " written to " + file + "\n");
    return 0;
}

} // namespace drover::cli
