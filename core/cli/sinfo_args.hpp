// sinfo_args.hpp - sinfo's options and the default format each view uses.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/env_options.hpp"
#include "cli/node_states.hpp"
#include "cli/options.hpp"

namespace drover::cli {

inline constexpr const char *kSinfoDefaultFormat = "%#P %.5a %.10l %.6D %.6t %N";
inline constexpr const char *kSinfoSummarizeFormat = "%#P %.5a %.10l %.16F  %N";
inline constexpr const char *kSinfoLongFormat =
    "%#P %.5a %.10l %.10s %.4r %.8h %.10g %.6D %.11T %.11i %N";
inline constexpr const char *kSinfoNodeFormat = "%#N %.6D %.#P %6t";
inline constexpr const char *kSinfoNodeLongFormat =
    "%#N %.6D %.#P %.11T %.4c %.8z %.6m %.8d %.6w %.8f %20E";
inline constexpr const char *kSinfoReasonsFormat = "%20E %9u %19H %N";
inline constexpr const char *kSinfoReasonsLongFormat = "%20E %12U %19H %6t %N";

struct SinfoArgs : CommonFlags {
    bool noheader = false, long_format = false, node_oriented = false, list_reasons = false;
    bool summarize = false, json = false, yaml = false;
    bool dead = false, responding = false, future = false, all = false;
    bool reservations = false; // -T: the reservation table instead of partitions and nodes
    StatusView view = StatusView::Default; // --federation, --local
    int iterate = 0;
    std::optional<std::string> format;   // -o
    std::optional<std::string> long_fmt; // -O
    std::optional<std::string> sort;     // -S (accepted; the default order is used)
    std::vector<std::string> partitions; // -p
    std::optional<std::string> nodes;    // -n hostlist
    std::vector<NodeStateMatch> states;  // -t
};

// Parses sinfo's arguments after the SINFO_* variables of env the command line does not override
// (sinfo(1), ENVIRONMENT VARIABLES). Throws UsageError for unknown options and
// drover::ParseError for bad values, and for -a with -p ("Conflicting options, -a and -p,
// specified. ...") or SINFO_ALL with SINFO_PARTITION.
SinfoArgs parse_sinfo_args(std::span<const std::string> args, const EnvVars &env = {});

// The -o format the options ask for (an explicit -o wins over -l/-N/-R/-s).
std::string sinfo_format_string(const SinfoArgs &a);

} // namespace drover::cli
