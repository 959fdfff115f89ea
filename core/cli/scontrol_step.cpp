// scontrol_step.cpp - scontrol update StepId=...: one StepUpdateRequest to the controller.
#include "cli/scontrol_step.hpp"

#include "cli/rpc.hpp"
#include "cli/step_update_args.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

int update_step(std::span<const std::string> words) {
    StepUpdate u;
    try {
        u = parse_step_update(words);
    } catch (const ParseError &e) {
        std::string msg = e.what();
        // Slurm's scontrol says these two bare, and stops the request.
        if (msg.starts_with("Update of this parameter") || msg == "No changes specified")
            write_err(msg + (msg == "No changes specified" ? "\n" : "\nRequest aborted\n"));
        else
            print_error("scontrol", msg);
        return 1;
    }
    flatbuffers::FlatBufferBuilder fbb(128);
    auto req =
        proto::CreateStepUpdateRequest(fbb, u.job_id, u.step_id, u.time_limit, int8_t(u.sign));
    net::Reply reply;
    auto report = [](const net::RpcError &e) {
        write_err(std::string("slurm_update error: ") + e.what() + "\n");
    };
    return ask_ctld<proto::OkResponse>(reply, fbb, proto::Body::StepUpdateRequest, req.Union(),
                                       report)
               ? 0
               : 1;
}

} // namespace drover::cli
