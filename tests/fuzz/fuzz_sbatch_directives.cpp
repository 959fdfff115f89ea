// fuzz_sbatch_directives.cpp - fuzz target: arbitrary script text through sbatch's #SBATCH
// directive scanning and option merging. Only drover::ParseError (a refused script) is expected.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/sbatch_opts.hpp"
#include "common/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 64 * 1024) return 0;
    std::string script(reinterpret_cast<const char *>(data), size);
    drover::cli::SbatchContext ctx;
    ctx.env = {{"HOME", "/home/u"}, {"SLURM_CONF", "/etc/slurm.conf"}};
    ctx.cwd = "/home/u";
    ctx.hostname = "login";
    ctx.now = 1700000000;
    try {
        drover::cli::SbatchRequest r =
            drover::cli::parse_sbatch(std::vector<std::string>{"job.sh"}, script, ctx);
        // What was accepted must be self-consistent.
        if (r.script != script) std::abort();
        if (r.max_nodes < r.min_nodes) std::abort();
        if (r.work_dir.empty() || r.work_dir[0] != '/') std::abort();
    } catch (const drover::ParseError &) {}
    // The scanner alone must agree: directives come in line order.
    try {
        int last = 0;
        for (const auto &d : drover::cli::scan_directives(script)) {
            if (d.line <= last) std::abort();
            last = d.line;
        }
    } catch (const drover::ParseError &) {}
    return 0;
}
