// fuzz_srun.cpp - fuzz target: arbitrary text as srun's, sbcast's and sattach's arguments (split
// on spaces), as a --multi-prog file, and as step I/O frame headers. Only drover::ParseError and
// UsageError (a refused command line or file) are expected.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "cli/sattach_args.hpp"
#include "cli/sbcast_args.hpp"
#include "cli/srun_opts.hpp"
#include "common/error.hpp"
#include "common/multi_prog.hpp"
#include "common/step_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 16 * 1024) return 0;
    std::string text(reinterpret_cast<const char *>(data), size);
    std::vector<std::string> args;
    std::istringstream in(text);
    for (std::string w; in >> w;) args.push_back(w);
    try {
        auto r =
            drover::cli::parse_srun(args, {{"SLURM_JOB_ID", "5"}, {"SLURM_NTASKS", "3"}}, "srun");
        if (r.max_nodes && r.max_nodes < r.min_nodes) std::abort();
    } catch (const drover::ParseError &) {
    } catch (const drover::cli::UsageError &) {}
    try {
        auto b = drover::cli::parse_sbcast_args(args, {{"SBCAST_SIZE", "4k"}});
        if (!b.help && !b.usage && !b.version && (b.job_id == 0 || b.block_size == 0)) std::abort();
        (void)drover::cli::resolve_bcast_dest(b.dest, "DestDir=/tmp", "/");
    } catch (const drover::ParseError &) {
    } catch (const drover::cli::UsageError &) {}
    try {
        auto s = drover::cli::parse_sattach_args(args);
        if (!s.help && !s.usage && !s.version && s.step_id >= 0xfffffff0u) std::abort();
    } catch (const drover::ParseError &) {
    } catch (const drover::cli::UsageError &) {}
    for (uint32_t n : {1u, 4u}) {
        try {
            auto p = drover::parse_multi_prog(text, n);
            if (p.size() != n) std::abort();
            for (const auto &argv : p)
                if (argv.empty()) std::abort();
        } catch (const drover::ParseError &) {}
    }
    if (size >= drover::stepio::kHeader) {
        drover::stepio::Header h;
        bool ok = drover::stepio::parse_header(data, &h);
        bool fence = h.type == drover::stepio::PmiFence || h.type == drover::stepio::PmiFenceDone;
        if (ok && h.len > (fence ? drover::stepio::kMaxFenceFrame : drover::stepio::kMaxFrame))
            std::abort();
    }
    return 0;
}
