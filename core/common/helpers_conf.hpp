// helpers_conf.hpp - helpers.conf, the file of NodeFeaturesPlugins=node_features/helpers, as
// helpers.conf(5) gives it: the changeable features ("Feature=a,b Helper=/path", for the nodes
// of "NodeName=<hostlist>" in front of it, else for all), MutuallyExclusive lists, AllowUserBoot,
// BootTime and ExecTime. It lies beside slurm.conf. Parameter names are case insensitive.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drover {

struct Config;

struct HelperFeatures {
    std::string nodes;                 // NodeName= hostlist; empty: every node
    std::vector<std::string> features; // Feature=
    std::string helper;                // Helper=
};

struct HelpersConf {
    std::string path; // empty: no helpers.conf (nothing is changeable)
    std::vector<HelperFeatures> lines;
    std::vector<std::vector<std::string>> mutually_exclusive;
    std::vector<std::string> allow_user_boot; // empty: ALL
    uint32_t boot_time = 300;                 // seconds
    uint32_t exec_time = 10;                  // seconds

    // The changeable features of a node among its slurm.conf features: those helpers.conf names,
    // on the node's lines or on any line (a feature helpers.conf names is changeable wherever
    // slurm.conf gives it).
    std::vector<std::string> changeable(const std::vector<std::string> &node_features) const;
    // The first MutuallyExclusive list two of names fall in, as "a,b"; empty when none.
    std::string conflict(const std::vector<std::string> &names) const;
};

// Parses helpers.conf's text; throws ParseError "NAME:LINE: what" (an unknown key, a Feature line
// without Helper or Helper without Feature, a bad hostlist, a time that is not a number).
HelpersConf parse_helpers_conf(std::string_view text, const std::string &name);
// Whether slurm.conf's NodeFeaturesPlugins names node_features/helpers.
bool helpers_plugin(const Config &conf);
// helpers.conf beside slurm.conf, when helpers_plugin(conf); an absent file, or no plugin: no
// changeable features (path empty). Throws ParseError for a file that does not read or parse.
HelpersConf load_helpers_conf(const Config &conf);

} // namespace drover
