// fuzz_rest_submit.cpp - fuzz target: the body of drover-restd's POST /slurm/vX/job/submit. Any
// bytes are a submission or a BadRequest naming why; nothing else may escape or crash, and what is
// taken must then go through sbatch's own option parser without crashing.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "restd/submit_body.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, std::size_t size) {
    std::string_view data(reinterpret_cast<const char *>(bytes), size);
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
        auto cl = drover::cli::parse_sbatch_command_line(body.options);
        (void)drover::cli::build_sbatch_request(cl, body.script, ctx);
    } catch (const std::exception &) {
        // refused as sbatch refuses it: fine
    }
    return 0;
}
