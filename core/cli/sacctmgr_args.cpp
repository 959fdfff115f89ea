// sacctmgr_args.cpp - sacctmgr's command line.
#include "cli/command_docs.hpp"
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
constexpr Word kEntities[] = {{"associations", 3, "association"},
                              {"accounts", 3, "account"},
                              {"acct", 4, "account"},
                              {"clusters", 2, "cluster"},
                              {"events", 1, "event"},
                              {"federations", 3, "federation"},
                              {"qos", 1, "qos"},
                              {"users", 1, "user"}};
// Keys as Slurm spells them, in the order it tries them: a word is the first key it abbreviates
// (at least min letters), so a longer key placed later never takes an abbreviation an earlier
// one already had ("maxj" is MaxJobs, "maxjobsp" MaxJobsPerUser). The association keys come
// from sacctmgr_set_assoc_rec/cond, the QOS ones from qos_functions.c; MaxSubmitPU and
// MaxSubmitPA (the QOS column headers) are taken only in full.
constexpr Word kKeys[] = {{"accounts", 3, "account"},
                          {"acct", 4, "account"},
                          {"adminlevel", 2, "adminlevel"},
                          {"clusters", 2, "cluster"},
                          {"defaultaccount", 3, "defaultaccount"},
                          {"defaultqos", 8, "defaultqos"},
                          {"descriptions", 3, "description"},
                          {"fairshare", 1, "fairshare"},
                          {"federation", 3, "federation"},
                          {"fedstate", 4, "fedstate"},
                          {"features", 3, "features"},
                          {"flags", 2, "flags"},
                          {"gracetime", 3, "gracetime"},
                          {"grpjobs", 4, "grpjobs"},
                          {"grpsubmitjobs", 4, "grpsubmitjobs"},
                          {"grptres", 7, "grptres"},
                          {"grptresmins", 8, "grptresmins"},
                          {"grptresrunmins", 8, "grptresrunmins"},
                          {"grpwall", 4, "grpwall"},
                          {"maxjobs", 4, "maxjobs"},
                          {"maxjobsperaccount", 11, "maxjobsperaccount"},
                          {"maxjobspa", 9, "maxjobsperaccount"},
                          {"maxjobsperuser", 4, "maxjobsperuser"},
                          {"maxjobspu", 4, "maxjobsperuser"},
                          {"maxsubmitjobs", 4, "maxsubmitjobs"},
                          {"maxsubmitjobsperaccount", 17, "maxsubmitjobsperaccount"},
                          {"maxsubmitjobspa", 15, "maxsubmitjobsperaccount"},
                          {"maxsubmitpa", 11, "maxsubmitjobsperaccount"},
                          {"maxsubmitjobsperuser", 4, "maxsubmitjobsperuser"},
                          {"maxsubmitjobspu", 4, "maxsubmitjobsperuser"},
                          {"maxsubmitpu", 11, "maxsubmitjobsperuser"},
                          {"maxtresperaccount", 11, "maxtresperaccount"},
                          {"maxtrespa", 9, "maxtresperaccount"},
                          {"maxtresperjob", 7, "maxtres"},
                          {"maxtrespernode", 11, "maxtrespernode"},
                          {"maxtresperuser", 11, "maxtresperuser"},
                          {"maxtrespu", 9, "maxtresperuser"},
                          {"maxtresminsperjob", 8, "maxtresmins"},
                          {"maxwalldurationperjob", 4, "maxwall"},
                          {"mintresperjob", 7, "mintres"},
                          {"names", 1, "name"},
                          {"organizations", 1, "organization"},
                          {"parent", 3, "parent"},
                          {"parentname", 7, "parent"},
                          {"partitions", 4, "partition"},
                          {"preemptmode", 8, "preemptmode"}, // before Preempt, as in Slurm
                          {"preempt", 7, "preempt"},
                          {"preemptexempttime", 8, "preemptexempttime"},
                          {"priority", 3, "priority"},
                          {"qoslevel", 1, "qos"},
                          {"shares", 1, "fairshare"},
                          {"usagefactor", 6, "usagefactor"},
                          {"usagethreshold", 6, "usagethreshold"},
                          {"users", 1, "user"}};

const char *lookup(std::span<const Word> words, std::string_view w) {
    for (const auto &x : words)
        if (w.size() >= x.min && w.size() <= std::string_view(x.name).size() &&
            istarts_with(x.name, w))
            return x.canonical;
    return nullptr;
}

// Keys whose value is a list that KEY+=V and KEY-=V add to or take from (Slurm's QosLevel, QOS
// Flags and Preempt); for the others Slurm ignores the + or -.
bool is_list_key(std::string_view k, std::string_view entity) {
    return k == "qos" || k == "flags" || k == "preempt" || k == "features" ||
           (k == "cluster" && entity == "federation");
}

// What a key means for a QOS, as Slurm's qos_functions.c reads it: MaxJobs and MaxSubmitJobs are
// the per-user limits, and where QOSLevel= is the QOS's name.
const char *qos_key(const char *k, bool setting) {
    std::string_view key = k;
    if (key == "maxjobs") return "maxjobsperuser";
    if (key == "maxsubmitjobs") return "maxsubmitjobsperuser";
    if (key == "qos" && !setting) return "name";
    return k;
}

// One KEY=VALUE, KEY+=VALUE or KEY-=VALUE word into set or where (format= into a.format).
void take_key_value(SacctmgrArgs &a, const std::string &word, std::size_t eq, bool setting) {
    std::string_view key_part = std::string_view(word).substr(0, eq);
    char op = 0;
    if (!key_part.empty() && (key_part.back() == '+' || key_part.back() == '-')) {
        op = key_part.back();
        key_part.remove_suffix(1);
    }
    std::string key = to_lower(trim(key_part));
    std::string value(trim(std::string_view(word).substr(eq + 1)));
    if (!op && (key == "format" || key == "fields")) {
        for (auto &f : split(value, ',')) a.format.push_back(std::move(f));
        return;
    }
    const char *k = lookup(kKeys, key);
    if (!k) throw ParseError(" Unknown option: " + word);
    if (a.entity == "qos") k = qos_key(k, setting);
    if (op && is_list_key(k, a.entity)) value.insert(value.begin(), op);
    (setting ? a.set : a.where).emplace_back(k, std::move(value));
}

// The words after the entity. Add takes settings only; modify has conditions, then "set";
// delete and show take conditions.
void take_words(SacctmgrArgs &a, std::span<const std::string> words) {
    bool setting = a.verb == "add";
    for (const auto &word : words) {
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
        if (lw == "withfed") {
            a.withfed = true;
            continue;
        }
        if (lw == "tree" && a.entity == "federation") {
            a.where.emplace_back("tree", "yes");
            continue;
        }
        auto eq = word.find('=');
        if (eq == std::string::npos) { // bare names
            (setting ? a.set : a.where).emplace_back("name", word);
            continue;
        }
        take_key_value(a, word, eq, setting);
    }
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
                         " (cluster, account, user, association, qos, event and federation are)");
    a.entity = entity;
    if (a.entity == "event") { // only listed; its conditions are its own (sacctmgr_events.hpp)
        if (a.verb != "show") throw ParseError("No valid entity in " + a.verb + " command");
        a.conditions.assign(w.begin() + 2, w.end());
        return a;
    }
    // Slurm's delete wants two letters of QOS where add, modify and show take one.
    if (a.entity == "qos" && a.verb == "delete" && w[1].size() < 2)
        throw ParseError("No valid entity in delete command");
    take_words(a, std::span<const std::string>(w).subspan(2));
    return a;
}

std::span<const OptSpec> sacctmgr_options() {
    return kSpecs;
}

} // namespace drover::cli
