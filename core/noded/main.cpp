// main.cpp - droverd: the Drover node daemon.
//
//   droverd [-D] [-f FILE] [-N NODENAME | --emulate HOSTLIST] [-L LOGFILE] [-v]
//   droverd -G [-f FILE] [-N NODENAME]      (print this node's generic resources and exit)
#include <cstdio>
#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "common/daemon_help.hpp"
#include "common/version.hpp"
#include "daemon/daemon.hpp"
#include "daemon/log_reopen.hpp"
#include "daemon/service.hpp"
#include "noded/node_daemon.hpp"
#include "noded/resources.hpp"

namespace {
void usage(std::FILE *to) {
    std::fputs(drover::kNodedHelp, to);
}
} // namespace

int main(int argc, char **argv) {
    drover::daemon::take_notify_socket();
    drover::daemon::catch_hup_and_usr2(); // before any thread: neither may end the daemon
    drover::daemon::CommonFlags flags;
    drover::noded::Options opts;
    bool show_gres = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "-D")
            flags.foreground = true;
        else if (a == "-G")
            show_gres = true;
        else if (a == "-v" || a == "-vv")
            flags.verbosity += int(a.size()) - 1;
        else if (a == "-f" && i + 1 < argc)
            flags.config = argv[++i];
        else if (a == "-L" && i + 1 < argc)
            flags.log_file = argv[++i];
        else if (a == "-N" && i + 1 < argc)
            opts.node_name = argv[++i];
        else if (a == "--emulate" && i + 1 < argc)
            opts.emulate = argv[++i];
        else if (a == "-V" || a == "--version") {
            std::printf("droverd %s (slurm %s)\n", drover::kDroverVersion, drover::kSlurmRelease);
            return 0;
        } else if (a == "-h" || a == "--help") {
            usage(stdout);
            return 0;
        } else {
            std::fprintf(stderr, "droverd: unrecognized option '%s'\n", argv[i]);
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
            service =
                drover::daemon::service_setup(flags, conf.raw, "slurmd", conf.slurmd_log_file);
        }
        if (show_gres) {
            std::string node =
                opts.node_name.empty() ? drover::daemon::short_hostname() : opts.node_name;
            drover::noded::print_node_gres(opts.config_path, node, stdout, stderr);
            return 0;
        }
        if (!flags.foreground) drover::daemon::detach();
        drover::daemon::setup_logging("droverd", service.log, flags.verbosity);
        drover::daemon::PidFile pid(service.pid_file);
        return drover::noded::run_node_daemon(opts);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "droverd: fatal: %s\n", e.what());
        if (!show_gres) spdlog::critical("fatal: {}", e.what()); // -G: stdout holds only gres
        return 1;
    }
}
