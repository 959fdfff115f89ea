// fuzz_rest_submit.cpp - fuzz target: the bodies of drover-restd's POST /slurm/vX/job/submit and
// DELETE /slurm/vX/jobs. Any bytes are a request or a BadRequest naming why; nothing else may
// escape or crash, and a submission taken must then go through sbatch's own option parser
// (components of a heterogeneous job joined by ':' as the daemon joins them) without crashing.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "restd/kill_body.hpp"
#include "restd/submit_body.hpp"

namespace {

void kill_body(std::string_view data) {
    try {
        drover::restd::KillBody k = drover::restd::parse_kill_body(data);
        if (k.signal < 0 || k.signal > 64) std::abort();
    } catch (const drover::restd::BadRequest &e) {
        if (std::string_view(e.what()).empty()) std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, std::size_t size) {
    std::string_view data(reinterpret_cast<const char *>(bytes), size);
    kill_body(data);
    drover::restd::SubmitBody body;
    try {
        body = drover::restd::parse_submit_body(data);
    } catch (const drover::restd::BadRequest &e) {
        if (std::string_view(e.what()).empty()) std::abort();
        return 0;
    }
    if (body.script.empty()) std::abort(); // a body without a script is refused
    try {
        drover::cli::SbatchContext ctx;
        ctx.env = body.environment;
        std::vector<std::string> args = body.options;
        for (const auto &part : body.het_options) {
            args.push_back(":");
            args.insert(args.end(), part.begin(), part.end());
        }
        auto cl = drover::cli::parse_sbatch_command_line(args);
        (void)drover::cli::build_sbatch_request(cl, body.script, ctx);
    } catch (const std::exception &) {
        // refused as sbatch refuses it: fine
    }
    return 0;
}
