// main.cpp - droverd: the Drover node daemon.
//
//   droverd [-D] [-f FILE] [-N NODENAME | --emulate HOSTLIST] [-L LOGFILE] [-v]
#include <cstdio>
#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "daemon/daemon.hpp"
#include "noded/node_daemon.hpp"

int main(int argc, char **argv) {
    drover::daemon::CommonFlags flags;
    drover::noded::Options opts;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "-D")
            flags.foreground = true;
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
            std::puts("droverd 0.1.0");
            return 0;
        } else {
            std::fprintf(stderr,
                         "droverd: unrecognized option '%s'\n"
                         "Usage: droverd [-D] [-f config] [-N nodename | --emulate hostlist] [-L "
                         "logfile] [-v]\n",
                         argv[i]);
            return 1;
        }
    }
    try {
        opts.config_path = drover::find_config_path(flags.config);
        // Parsed here to fail before detaching; only the log file is kept, so that a large
        // cluster's node records are not held twice while the daemon runs on its own parse.
        std::string log = drover::load_config(opts.config_path).slurmd_log_file;
        if (!flags.log_file.empty()) log = flags.log_file;
        if (!flags.foreground) drover::daemon::detach();
        drover::daemon::setup_logging(
            "droverd", flags.foreground && flags.log_file.empty() ? "" : log, flags.verbosity);
        return drover::noded::run_node_daemon(opts);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "droverd: fatal: %s\n", e.what());
        spdlog::critical("fatal: {}", e.what());
        return 1;
    }
}
