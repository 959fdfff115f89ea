// sshare_args.cpp - sshare's options and its -v lines.
#include "cli/command_docs.hpp"
#include "cli/sshare_args.hpp"

#include <algorithm>

#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

enum Id : int {
    kAll,
    kAccounts,
    kHelpFormat,
    kLong,
    kPartition,
    kClusters,
    kNoheader,
    kFormat,
    kParsable,
    kParsable2,
    kQuiet,
    kTime,
    kUsers,
    kUsersOnly,
    kJson,
    kYaml,
    kAutocomplete,
};

// Slurm 23.11's table and letters ("aA:ehlM:no:pPqUu:t:vVm"): -h is --noheader's other letter,
// --help and --usage have none.
constexpr OptSpec kSpecs[] = {
    {kAll, 'a', "all", Arg::none},
    {kAccounts, 'A', "accounts", Arg::required},
    {kHelpFormat, 'e', "helpformat", Arg::none},
    {kNoheader, 'h', nullptr, Arg::none},
    {kLong, 'l', "long", Arg::none},
    {kPartition, 'm', "partition", Arg::none},
    {kClusters, 'M', "cluster", Arg::required},
    {kClusters, 0, "clusters", Arg::required},
    {kNoheader, 'n', "noheader", Arg::none},
    {kFormat, 'o', "format", Arg::required},
    {kParsable, 'p', "parsable", Arg::none},
    {kParsable2, 'P', "parsable2", Arg::none},
    {kQuiet, 'q', nullptr, Arg::none},
    {kTime, 't', nullptr, Arg::required},
    {kUsers, 'u', "users", Arg::required},
    {kUsersOnly, 'U', "Users", Arg::none},
    {kOptVerbose, 'v', "verbose", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},
    {kOptHelp, 0, "help", Arg::none},
    {kOptUsage, 0, "usage", Arg::none},
    {kJson, 0, "json", Arg::optional},
    {kYaml, 0, "yaml", Arg::optional},
    {kAutocomplete, 0, "autocomplete", Arg::required},
};

// Appends value's comma-separated items to list (lower-cased when lower), each only once:
// Slurm's slurm_addto_char_list (lower) and its name lists (not lower), which compare without
// case.
void add_items(std::vector<std::string> &list, std::string_view value, bool lower) {
    for (auto &item : split(value, ',')) {
        if (lower) item = to_lower(item);
        auto same = [&](const std::string &have) { return iequals(have, item); };
        if (std::none_of(list.begin(), list.end(), same)) list.push_back(std::move(item));
    }
}

// -u: "-1" asks for every user; names (or uids) ask for those, and take back an earlier -a.
void take_users(SshareArgs &a, const std::string &v) {
    if (v == "-1") {
        a.all_users = true;
        return;
    }
    a.all_users = false;
    add_items(a.users, v, false);
}

[[noreturn]] void refuse(const ParsedOpt &o) {
    throw ParseError(o.spelled + " is not supported by Drover");
}

void take(SshareArgs &a, const ParsedOpt &o) {
    const std::string v = o.value.value_or("");
    switch (o.id) {
    case kAll:
        a.all_users = true;
        break;
    case kAccounts:
        add_items(a.accounts, v, true);
        break;
    case kHelpFormat:
        a.help_format = true;
        break;
    case kLong:
        a.long_format = true;
        break;
    case kPartition:
        a.partitions = true;
        break;
    case kClusters:
        a.clusters = split(v, ',');
        break;
    case kNoheader:
        a.noheader = true;
        break;
    case kFormat:
        add_items(a.format, v, true);
        break;
    case kParsable:
        a.layout = FieldLayout::parsable;
        break;
    case kParsable2:
        a.layout = FieldLayout::parsable2;
        break;
    case kQuiet:
    case kTime:
        if (!a.getopt_error) a.getopt_error = o.spelled[1];
        break;
    case kUsers:
        take_users(a, v);
        break;
    case kUsersOnly:
        a.users_only = true;
        break;
    default:
        refuse(o); // --json, --yaml, --autocomplete
    }
}

} // namespace

SshareArgs parse_sshare_args(std::span<const std::string> args) {
    SshareArgs a;
    for (const auto &o : parse_options(args, kSpecs, false).opts)
        if (!take_common(a, o)) take(a, o);
    if (a.all_users) a.users.clear();
    return a;
}

std::string sshare_verbose_text(const SshareArgs &a, const std::vector<std::string> &users,
                                const std::string &caller) {
    std::string out;
    if (a.all_users) {
        out += "Users requested:\n\t: all\n";
    } else if (!users.empty()) {
        out += "Users requested:\n";
        for (const auto &u : users) out += "\t: " + u + "\n";
    } else if (!caller.empty()) {
        out += "Users requested:\n\t: " + caller + "\n";
    }
    out += "Accounts requested:\n";
    if (a.accounts.empty()) out += "\t: all\n";
    for (const auto &acct : a.accounts) out += "\t: " + acct + "\n";
    return out;
}

std::span<const OptSpec> sshare_options() {
    return kSpecs;
}

} // namespace drover::cli
