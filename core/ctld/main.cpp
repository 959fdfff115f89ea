// main.cpp - droverctld: the Drover controller.
//
//   droverctld [-D] [-f FILE] [-c | -R] [-L LOGFILE] [-v] [--controller NAME]
#include <cstdio>
#include <cstring>
#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "common/version.hpp"
#include "ctld/controller.hpp"
#include "daemon/daemon.hpp"

namespace {
void usage() {
    std::fputs(
        "Usage: droverctld [-D] [-f config] [-c] [-R] [-L logfile] [-v] [--controller NAME]\n"
        "  -D  stay in the foreground\n"
        "  -c  cold start: discard saved jobs\n"
        "  -R  recover all saved state (the default)\n"
        "  --controller NAME  run as this SlurmctldHost (default: the one whose address\n"
        "                     is on this host, or named like it)\n",
        stderr);
}
} // namespace

int main(int argc, char **argv) {
    drover::daemon::CommonFlags flags;
    drover::ctld::Options opts;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "-D")
            flags.foreground = true;
        else if (a == "-c")
            opts.cold_start = true;
        else if (a == "-R")
            opts.cold_start = false;
        else if (a == "-v" || a == "-vv")
            flags.verbosity += int(a.size()) - 1;
        else if (a == "-f" && i + 1 < argc)
            flags.config = argv[++i];
        else if (a == "-L" && i + 1 < argc)
            flags.log_file = argv[++i];
        else if (a == "--controller" && i + 1 < argc)
            opts.controller_name = argv[++i];
        else if (a == "-V" || a == "--version") {
            std::printf("droverctld %s (slurm %s)\n", drover::kDroverVersion,
                        drover::kSlurmRelease);
            return 0;
        } else if (a == "-h" || a == "--help") {
            usage();
            return 0;
        } else {
            std::fprintf(stderr, "droverctld: unrecognized option '%s'\n", argv[i]);
            usage();
            return 1;
        }
    }
    try {
        opts.config_path = drover::find_config_path(flags.config);
        // Parsed here to fail before detaching; only the log file is kept, so that a large
        // cluster's node records are not held twice while the daemon runs on its own parse.
        std::string log = drover::load_config(opts.config_path).slurmctld_log_file;
        if (!flags.log_file.empty()) log = flags.log_file;
        if (!flags.foreground) drover::daemon::detach();
        drover::daemon::setup_logging(
            "droverctld", flags.foreground && flags.log_file.empty() ? "" : log, flags.verbosity);
        return drover::ctld::run_controller(opts);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "droverctld: fatal: %s\n", e.what());
        spdlog::critical("fatal: {}", e.what());
        return 1;
    }
}
