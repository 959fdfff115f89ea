// sbcast.cpp - sbcast: a file copied to every node of the job the caller runs in (or names).
#include <unistd.h>

#include <climits>

#include "cli/command_docs.hpp"
#include "cli/alloc.hpp"
#include "cli/bcast_send.hpp"
#include "cli/command_main.hpp"
#include "cli/sbcast_args.hpp"

namespace drover::cli {

namespace {

constexpr const char *kProg = "sbcast";

constexpr const char *kHelp =
    "Usage: sbcast [OPTIONS] SOURCE DEST\n"
    "  -C, --compress[=lib]  compress the file being transmitted (accepted; sent as is)\n"
    "  --exclude=<path_list> shared object paths to be excluded\n"
    "  -f, --force           replace destination file as required\n"
    "  -F, --fanout=num      specify message fanout\n"
    "  -j, --jobid=#[.#]     specify job ID with optional step ID\n"
    "  -p, --preserve        preserve modes and times of source file\n"
    "  --send-libs[=yes|no]  broadcast the executable's shared objects (accepted)\n"
    "  -s, --size=num        block size in bytes (k or m suffix)\n"
    "  -t, --timeout=secs    specify message timeout (seconds)\n"
    "  -v, --verbose         provide detailed event logging\n"
    "  -V, --version         print version information and exit\n"
    "\nHelp options:\n"
    "  --help                show this help message\n"
    "  --usage               display brief usage message\n";

constexpr const char *kUsage = "Usage: sbcast [--exclude] [-CfFjpvV] [--send-libs] SOURCE DEST\n";

SbcastArgs parse(std::span<const std::string> args) {
    return parse_sbcast_args(args, process_env());
}

std::string current_dir() {
    char buf[PATH_MAX];
    return ::getcwd(buf, sizeof buf) ? buf : "/";
}

int run(const SbcastArgs &a) {
    for (const auto &w : a.warnings) print_error(kProg, w);
    BcastSend b;
    b.job_id = a.job_id;
    b.step_id = a.step_id;
    b.source = a.source;
    b.dest = resolve_bcast_dest(a.dest, cli_config().bcast_parameters, current_dir());
    b.force = a.force;
    b.preserve = a.preserve;
    b.fanout = a.fanout;
    b.block_size = a.block_size;
    b.timeout_ms = a.timeout_ms;
    if (a.verbose) {
        std::string line = std::string(kProg) + ": ";
        write_err(line + "block_size = " + std::to_string(b.block_size) + "\n" + line +
                  "force      = " + (b.force ? "true" : "false") + "\n" + line +
                  "fanout     = " + std::to_string(b.fanout) + "\n" + line +
                  "preserve   = " + (b.preserve ? "true" : "false") + "\n" + line +
                  "source     = " + b.source + "\n" + line + "dest       = " + b.dest + "\n");
    }
    return send_file(b, kProg);
}

} // namespace

int sbcast_main(std::span<const std::string> args) {
    return command_main<SbcastArgs>({kProg, kHelp, kUsage}, args, parse, run);
}

std::string_view sbcast_help() {
    return kHelp;
}

} // namespace drover::cli
