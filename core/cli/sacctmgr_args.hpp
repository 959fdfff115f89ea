// sacctmgr_args.hpp - sacctmgr's options and command words: "add|modify|delete|show ENTITY
// [names] [where K=V ...] [set K=V ...] [format=F,...]", keys and entities as Slurm spells and
// abbreviates them.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cli/options.hpp"

namespace drover::cli {

struct SacctmgrArgs : CommonFlags {
    bool immediate = false, noheader = false, parsable = false, parsable2 = false, quiet = false;
    std::string verb;   // add, modify, delete, show
    std::string entity; // cluster, account, user, association, qos, event, federation
    // Canonical lower-case keys: name, cluster, account, user, partition, parent, description,
    // organization, defaultaccount, adminlevel, defaultqos, qos, fairshare, priority; the limits
    // grpjobs, grpsubmitjobs, grptres, grptresmins, grptresrunmins, grpwall, maxjobs,
    // maxsubmitjobs, maxtres, maxtrespernode, maxtresmins, maxwall, maxjobsperuser,
    // maxsubmitjobsperuser, maxtresperuser, maxjobsperaccount, maxsubmitjobsperaccount,
    // maxtresperaccount, mintres; and for a QOS flags, gracetime, preempt, preemptmode,
    // preemptexempttime, usagefactor, usagethreshold. Names written bare are name=. KEY+=V and
    // KEY-=V on a list (qos, flags, preempt; features, and a federation's clusters) send "+V" and
    // "-V"; on a QOS, MaxJobs and MaxSubmitJobs are the per-user limits and where QOS= is its name,
    // as in Slurm.
    std::vector<std::pair<std::string, std::string>> set, where;
    std::vector<std::string> format; // format= items as written ("User", "Account%20")
    bool withfed = false;            // show cluster withfed: the federation columns too
    // show event: the words after the entity as written (sacctmgr_events.hpp reads them).
    std::vector<std::string> conditions;
};

// Throws UsageError for an unknown option and drover::ParseError for a bad command (its what()
// is the line sacctmgr prints, Slurm's where Slurm has one).
SacctmgrArgs parse_sacctmgr_args(std::span<const std::string> args);

} // namespace drover::cli
