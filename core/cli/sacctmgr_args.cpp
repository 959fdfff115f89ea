// sacctmgr_args.cpp - sacctmgr's command line.
#include "cli/sacctmgr_args.hpp"

#include "cli/options.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

enum Id : int { kImmediate, kNoheader, kParsable, kParsable2, kQuiet, kAssocs, kReadonly };

constexpr OptSpec kSpecs[] = {
    {kImmediate, 'i', "immediate", Arg::none}, {kNoheader, 'n', "noheader", Arg::none},
    {kParsable, 'p', "parsable", Arg::none},   {kParsable2, 'P', "parsable2", Arg::none},
    {kQuiet, 'Q', "quiet", Arg::none},         {kOptVerbose, 'v', "verbose", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},  {kOptHelp, 'h', "help", Arg::none},
    {kOptUsage, 0, "usage", Arg::none},        {kAssocs, 's', "associations", Arg::none},
    {kReadonly, 'r', "readonly", Arg::none},
};

struct Word {
    const char *name;
    std::size_t min; // the shortest abbreviation taken
    const char *canonical;
};

// Slurm's spellings, in the order it tries them.
constexpr Word kVerbs[] = {
    {"add", 3, "add"},       {"create", 2, "add"},    {"modify", 1, "modify"},
    {"update", 1, "modify"}, {"delete", 3, "delete"}, {"remove", 3, "delete"},
    {"show", 3, "show"},     {"list", 3, "show"},     {"view", 3, "show"}};
constexpr Word kEntities[] = {
    {"associations", 3, "association"}, {"accounts", 3, "account"}, {"acct", 4, "account"},
    {"clusters", 2, "cluster"},         {"events", 1, "event"},     {"users", 1, "user"}};
constexpr Word kKeys[] = {{"accounts", 3, "account"},
                          {"acct", 4, "account"},
                          {"adminlevel", 2, "adminlevel"},
                          {"clusters", 2, "cluster"},
                          {"defaultaccount", 3, "defaultaccount"},
                          {"description", 3, "description"},
                          {"names", 1, "name"},
                          {"organization", 1, "organization"},
                          {"parent", 3, "parent"},
                          {"parentname", 7, "parent"},
                          {"partitions", 4, "partition"},
                          {"users", 1, "user"}};

const char *lookup(std::span<const Word> words, std::string_view w) {
    for (const auto &x : words)
        if (w.size() >= x.min && w.size() <= std::string_view(x.name).size() &&
            istarts_with(x.name, w))
            return x.canonical;
    return nullptr;
}

} // namespace

SacctmgrArgs parse_sacctmgr_args(std::span<const std::string> args) {
    ParsedArgs pa = parse_options(args, kSpecs, /*stop_at_positional=*/true);
    SacctmgrArgs a;
    for (const auto &o : pa.opts) {
        if (take_common(a, o)) continue;
        switch (static_cast<Id>(o.id)) {
        case kImmediate:
            a.immediate = true;
            break;
        case kNoheader:
            a.noheader = true;
            break;
        case kParsable:
            a.parsable = true;
            break;
        case kParsable2:
            a.parsable2 = true;
            break;
        case kQuiet:
            a.quiet = true;
            break;
        default:
            break;
        }
    }
    const auto &w = pa.positionals;
    if (w.empty()) {
        if (!a.help && !a.usage && !a.version)
            throw ParseError(
                "Drover's sacctmgr takes one command on its line (add, modify, delete, show)");
        return a;
    }
    const char *verb = lookup(kVerbs, to_lower(w[0]));
    if (!verb) throw ParseError("Invalid command: " + w[0]);
    a.verb = verb;
    if (w.size() < 2) throw ParseError("Invalid command: " + w[0] + ": what to " + a.verb + "?");
    const char *entity = lookup(kEntities, to_lower(w[1]));
    if (!entity)
        throw ParseError("Not supported by Drover: " + w[0] + " " + w[1] +
                         " (cluster, account, user, association and event are)");
    a.entity = entity;
    if (a.entity == "event") { // only listed; its conditions are its own (sacctmgr_events.hpp)
        if (a.verb != "show") throw ParseError("No valid entity in " + a.verb + " command");
        a.conditions.assign(w.begin() + 2, w.end());
        return a;
    }
    // Where words go: add takes settings only; modify has conditions, then "set"; delete and
    // show take conditions.
    bool setting = a.verb == "add";
    for (std::size_t i = 2; i < w.size(); ++i) {
        std::string word = w[i];
        std::string lw = to_lower(word);
        if (lw == "where") {
            if (a.verb != "add") setting = false;
            continue;
        }
        if (lw == "set") {
            if (a.verb != "modify")
                throw ParseError(" Unknown option: set (only modify sets values)");
            setting = true;
            continue;
        }
        if (lw == "withassoc" || lw == "withassocs" || lw == "withcoord" || lw == "withdeleted")
            continue;
        auto eq = word.find('=');
        auto &to = setting ? a.set : a.where;
        if (eq == std::string::npos) { // bare names
            to.emplace_back("name", word);
            continue;
        }
        std::string key = to_lower(trim(std::string_view(word).substr(0, eq)));
        std::string value(trim(std::string_view(word).substr(eq + 1)));
        if (key == "format" || key == "fields") {
            for (auto &f : split(value, ',')) a.format.push_back(std::move(f));
            continue;
        }
        const char *k = lookup(kKeys, key);
        if (!k) throw ParseError(" Unknown option: " + word);
        to.emplace_back(k, value);
    }
    return a;
}

} // namespace drover::cli
