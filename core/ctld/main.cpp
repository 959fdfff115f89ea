// main.cpp - droverctld: the Drover controller.
//
//   droverctld [-D] [-f FILE] [-c | -R] [-L LOGFILE] [-v] [--controller NAME]
#include <cstdio>
#include <cstring>
#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "common/daemon_help.hpp"
#include "common/version.hpp"
#include "ctld/controller.hpp"
#include "daemon/daemon.hpp"
#include "daemon/log_reopen.hpp"
#include "daemon/service.hpp"

namespace {
void usage(std::FILE *to) {
    std::fputs(drover::kCtldHelp, to);
}
} // namespace

int main(int argc, char **argv) {
    drover::daemon::take_notify_socket();
    drover::daemon::catch_hup_and_usr2(); // before any thread: neither may end the daemon
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
            usage(stdout);
            return 0;
        } else {
            std::fprintf(stderr, "droverctld: unrecognized option '%s'\n", argv[i]);
            usage(stderr);
            return 1;
        }
    }
    try {
        opts.config_path = drover::find_config_path(flags.config);
        // Parsed here to fail before detaching; only the service set-up is kept, so that a large
        // cluster's node records are not held twice while the daemon runs on its own parse.
        drover::daemon::ServiceSetup service;
        {
            const drover::Config conf = drover::load_config(opts.config_path);
            service = drover::daemon::service_setup(flags, conf.raw, "slurmctld",
                                                    conf.slurmctld_log_file);
        }
        if (!flags.foreground) drover::daemon::detach();
        drover::daemon::setup_logging("droverctld", service.log, flags.verbosity);
        drover::daemon::PidFile pid(service.pid_file);
        return drover::ctld::run_controller(opts);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "droverctld: fatal: %s\n", e.what());
        spdlog::critical("fatal: {}", e.what());
        return 1;
    }
}
