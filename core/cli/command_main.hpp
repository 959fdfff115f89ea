// command_main.hpp - the frame every command's entry point shares: parse the command line (a
// usage mistake prints GNU's two lines, status 1), answer --help, --usage and --version
// (status 0), run the command, and turn config, transport and controller errors into
// "<prog>: error: <message>" (status 1).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "cli/clusters.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/rpc.hpp"
#include "cli/text.hpp"

namespace drover::cli {

// What a command prints for --help, --usage and --version.
struct CommandText {
    std::string_view prog;
    const char *help;
    const char *usage = nullptr;  // nullptr: --usage prints the help
    bool cluster_headers = false; // -M: "CLUSTER: name" before each cluster's output
};

// Prints the first of --help, --usage and --version that a asks for; returns whether it did.
inline bool print_help_usage_version(const CommandText &t, const CommonFlags &a) {
    if (a.help)
        write_out(t.help);
    else if (a.usage)
        write_out(t.usage ? t.usage : t.help);
    else if (a.version)
        write_out(version_line());
    else
        return false;
    return true;
}

// The whole of a command: a = parse(args), then --help/--usage/--version, then run(a).
template <class Args>
int command_main(const CommandText &t, std::span<const std::string> args,
                 Args (*parse)(std::span<const std::string>), int (*run)(const Args &)) {
    return guarded(t.prog, [&] {
        Args a;
        try {
            a = parse(args);
        } catch (const UsageError &e) {
            print_usage_error(t.prog, e);
            return 1;
        }
        if (print_help_usage_version(t, a)) return 0;
        if (a.on_clusters)
            return for_each_cluster(t.prog, *a.on_clusters, t.cluster_headers,
                                    [&] { return run(a); });
        return run(a);
    });
}

} // namespace drover::cli
