// options.hpp - a getopt_long-like option parser with GNU's messages, for every command.
#pragma once

#include <optional>
#include <utility>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace drover::cli {

enum class Arg { none, required, optional };

// One option: a short letter (0 if none), a long name (nullptr if none), and its id.
struct OptSpec {
    int id;
    char short_name;
    const char *long_name;
    Arg arg;
};

struct ParsedOpt {
    int id;
    std::optional<std::string> value;
    std::string spelled; // as written: "--job-name" or "-J"
};

// The ids of the options every command shares, above any command's own; each command's table
// gives them its own letters (sattach's -u for --usage, no -h where -h means something else).
enum CommonOpt : int { kOptHelp = 0x7000, kOptUsage, kOptVersion, kOptVerbose, kOptClusters };

// Which clusters a status command shows: --local, --federation, or by default the federation only
// when slurm.conf says FederationParameters=fed_display (and no -M names clusters).
enum class StatusView : uint8_t { Default, Local, Federation };

// What the shared options ask for; every command's arguments derive from it.
struct CommonFlags {
    bool help = false, usage = false, version = false;
    int verbose = 0; // -v given this many times
    // -M/--clusters as written (commands whose table names kOptClusters): the command runs
    // against each of these clusters of the accounting store (cli/clusters.hpp).
    std::optional<std::string> on_clusters;
};

// Applies o to f when it is --help, --usage, --version or --verbose; returns whether it was.
bool take_common(CommonFlags &f, const ParsedOpt &o);

struct ParsedArgs {
    std::vector<ParsedOpt> opts;
    std::vector<std::string> positionals;
};

// A command-line mistake; what() is GNU getopt's line without the program prefix
// ("unrecognized option '--foo'"). Commands print "<prog>: <what>" and the "Try" line.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Parses args (argv without argv[0]). Long options may be abbreviated to a unique prefix
// ("--part" for "--partition"); an exact name always wins. With stop_at_positional, the first
// non-option ends option parsing and it and everything after are positionals (sbatch's script
// and its arguments); otherwise options and positionals may mix, as GNU getopt permutes.
// "--" always ends option parsing.
ParsedArgs parse_options(std::span<const std::string> args, std::span<const OptSpec> specs,
                         bool stop_at_positional);

// Option values as sbatch, srun and salloc check them; a bad one throws
// drover::ParseError("invalid <what> '<value>'").
std::string quoted(std::string_view v);                       // 'v'
uint32_t positive(std::string_view v, const char *what);      // 1..2^32-1
uint64_t size_mb(std::string_view v, const char *what);       // "4G", "100" (MB), ...
std::pair<uint32_t, uint32_t> node_count(std::string_view v); // -N: "4" or "2-8" (min, max)

// Prints "<prog>: <err>\nTry \"<prog> --help\" for more information\n" to stderr.
void print_usage_error(std::string_view prog, const UsageError &err);

} // namespace drover::cli
