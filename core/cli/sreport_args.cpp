// sreport_args.cpp - sreport's options, report words, conditions and window.
#include "cli/command_docs.hpp"
#include "cli/sreport_args.hpp"

#include <algorithm>
#include <ctime>

#include "cli/sacct_time.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"
#include "common/hostlist.hpp"

namespace drover::cli {

namespace {

enum Id : int { kAllClusters, kCluster, kNoheader, kParsable, kParsable2, kQuiet, kSort, kTime };
enum IgnoredId : int { kTres = 100, kFederation, kLocal, kImmediate };

constexpr OptSpec kSpecs[] = {
    {kAllClusters, 'a', "all_clusters", Arg::none},
    {kCluster, 'M', "cluster", Arg::required},
    {kOptHelp, 'h', "help", Arg::none},
    {kOptHelp, 0, "usage", Arg::none},
    {kImmediate, 'i', "immediate", Arg::none},
    {kNoheader, 'n', "noheader", Arg::none},
    {kParsable, 'p', "parsable", Arg::none},
    {kParsable2, 'P', "parsable2", Arg::none},
    {kQuiet, 'Q', "quiet", Arg::none},
    {kSort, 's', "sort", Arg::required},
    {kTime, 't', nullptr, Arg::required},
    {kTres, 'T', "tres", Arg::required},
    {kOptVerbose, 'v', "verbose", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},
    {kFederation, 0, "federation", Arg::none},
    {kLocal, 0, "local", Arg::none},
};

struct TimeWord {
    const char *name;
    std::size_t min;
    ReportTime time;
};

// In the order Slurm tries them.
constexpr TimeWord kTimeWords[] = {
    {"SecPer", 6, ReportTime::seconds_per}, {"MinPer", 6, ReportTime::minutes_per},
    {"HourPer", 6, ReportTime::hours_per},  {"Seconds", 1, ReportTime::seconds},
    {"Minutes", 1, ReportTime::minutes},    {"Hours", 1, ReportTime::hours},
    {"Percent", 1, ReportTime::percent},
};

std::vector<std::string> list_of(std::string_view value) {
    std::vector<std::string> out;
    for (auto &v : split(value, ','))
        if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(std::move(v));
    return out;
}

void append(std::vector<std::string> &to, std::string_view value) {
    for (auto &v : list_of(value)) to.push_back(std::move(v));
}

// atoi: the leading digits, 0 without any.
uint32_t leading_number(std::string_view s) {
    uint32_t n = 0;
    for (char c : s) {
        if (c < '0' || c > '9') break;
        n = n * 10 + uint32_t(c - '0');
    }
    return n;
}

// The nearest whole hour (from 30 minutes on, the next), as Slurm rounds a given start and end.
int64_t round_to_hour(int64_t t) {
    std::tm tm = local_tm(t);
    if (tm.tm_sec >= 30) ++tm.tm_min;
    if (tm.tm_min >= 30) ++tm.tm_hour;
    tm.tm_sec = tm.tm_min = 0;
    return make_local(tm);
}

// 00:00 of today (days_back 0) or yesterday (1).
int64_t midnight(int64_t now, int days_back) {
    std::tm tm = local_tm(now);
    tm.tm_sec = tm.tm_min = tm.tm_hour = 0;
    tm.tm_mday -= days_back;
    return make_local(tm);
}

// One condition word split at '=' (bare: no '=').
struct Cond {
    std::string word, key, value;
    bool bare;
    explicit Cond(const std::string &w) : word(w) {
        auto eq = w.find('=');
        bare = eq == std::string::npos;
        key = bare ? w : w.substr(0, eq);
        value = bare ? w : w.substr(eq + 1);
    }
    bool is(std::string_view name, std::size_t min) const { return abbreviates(key, name, min); }
};

std::string unknown_condition(const std::string &word) {
    return " Unknown condition: " + word + "\nUse keyword set to modify value";
}

[[noreturn]] void unsupported_condition(const Cond &c) {
    throw ParseError("sreport: error: " + c.key + "= is not supported by Drover");
}

// Start= and End= of every report; false when the word is neither.
bool take_time(const Cond &c, int64_t now, int64_t &start, int64_t &end) {
    if (c.bare) return false;
    if (c.is("End", 1))
        end = parse_sacct_time(c.value, now);
    else if (c.is("Start", 1))
        start = parse_sacct_time(c.value, now);
    else
        return false;
    return true;
}

// Clusters= and a bare cluster name (after the bare words a report knows).
void utilization_condition(ReportRequest &r, const Cond &c) {
    if (c.bare && abbreviates(c.word, "all_clusters", 1))
        r.all_clusters = true;
    else if (c.bare || c.is("Clusters", 1))
        append(r.clusters, c.value);
    else if (c.is("Format", 1))
        append(r.format, c.value);
    else
        r.errors.push_back(unknown_condition(c.word));
}

void assoc_condition(ReportRequest &r, const Cond &c) {
    if (c.bare && abbreviates(c.word, "all_clusters", 1))
        r.all_clusters = true;
    else if (c.bare && abbreviates(c.word, "Tree", 4))
        r.tree = true;
    else if (c.bare || c.is("Users", 1))
        append(r.users, c.value);
    else if (c.is("Accounts", 2) || c.is("Acct", 4))
        append(r.accounts, c.value);
    else if (c.is("Clusters", 1))
        append(r.clusters, c.value);
    else if (c.is("Format", 1))
        append(r.format, c.value);
    else if (c.is("QosLevel", 1))
        unsupported_condition(c);
    else
        r.errors.push_back(unknown_condition(c.word));
}

void job_list(ReportRequest &r, const std::string &value) {
    for (const auto &item : list_of(value)) {
        auto id = parse_u32(item.substr(0, item.find('.')));
        if (!id) throw ParseError("sreport: error: Invalid job id: " + item);
        r.job_ids.push_back(*id);
    }
}

void job_condition(ReportRequest &r, const Cond &c) {
    if (c.bare && abbreviates(c.word, "all_clusters", 1))
        r.all_clusters = true;
    else if (c.bare && abbreviates(c.word, "AcctAsParent", 2))
        r.acct_as_parent = true;
    else if (c.bare && abbreviates(c.word, "PrintJobCount", 2))
        r.print_job_count = true;
    else if (c.bare && abbreviates(c.word, "FlatView", 2))
        r.flat_view = true;
    else if (c.bare || c.is("Clusters", 1))
        append(r.clusters, c.value);
    else if (c.is("Accounts", 2) || c.is("Acct", 4))
        append(r.accounts, c.value);
    else if (c.is("Associations", 2) || c.is("Gid", 2) || c.is("Wckeys", 2))
        unsupported_condition(c);
    else if (c.is("Format", 2))
        append(r.format, c.value);
    else if (c.is("grouping", 2) && istarts_with(c.value, "i"))
        r.individual = true;
    else if (c.is("grouping", 2))
        for (const auto &g : split(c.value, ',')) r.grouping.push_back(leading_number(g));
    else if (c.is("Jobs", 1))
        job_list(r, c.value);
    else if (c.is("Nodes", 1))
        for (auto &n : hostlist_expand(c.value)) r.nodes.push_back(std::move(n));
    else if (c.is("Partitions", 2))
        append(r.partitions, c.value);
    else if (c.is("Users", 1))
        append(r.users, c.value);
    else
        r.errors.push_back(unknown_condition(c.word));
}

// The report named by a cluster or job report word, as Slurm matches them.
ReportKind report_kind(const std::string &type, const std::string &word) {
    if (type == "cluster") {
        if (istarts_with(word, "a")) return ReportKind::account_by_user;
        if (istarts_with(word, "UserUtilizationByA") || istarts_with(word, "ua"))
            return ReportKind::user_by_account;
        if (istarts_with(word, "UserUtilizationByW") || istarts_with(word, "uw") ||
            istarts_with(word, "w"))
            throw ParseError("sreport: error: the WCKey reports are not supported by Drover");
        if (istarts_with(word, "ut")) return ReportKind::utilization;
        throw ParseError("Not valid report " + word +
                         "\nValid cluster reports are, \"AccountUtilizationByUser\", "
                         "\"UserUtilizationByAccount\", \"UserUtilizationByWckey\", "
                         "\"Utilization\", and \"WCKeyUtilizationByUser\"");
    }
    if (abbreviates(word, "SizesByAccount", 1)) return ReportKind::sizes_by_account;
    if (abbreviates(word, "SizesByWcKey", 8) || abbreviates(word, "SizesByAccountAndWcKey", 15))
        throw ParseError("sreport: error: the WCKey reports are not supported by Drover");
    throw ParseError("Not valid report " + word +
                     "\nValid job reports are, \"SizesByAccount, SizesByAccountAndWcKey, and  "
                     "SizesByWckey\"");
}

} // namespace

bool parse_report_time(std::string_view word, ReportTime &out) {
    for (const auto &t : kTimeWords)
        if (abbreviates(word, t.name, t.min)) {
            out = t.time;
            return true;
        }
    return false;
}

const char *report_time_name(ReportTime t) {
    switch (t) {
    case ReportTime::seconds:
        return "Seconds";
    case ReportTime::hours:
        return "Hours";
    case ReportTime::percent:
        return "Percentage of Total";
    case ReportTime::seconds_per:
        return "Seconds/Percentage of Total";
    case ReportTime::minutes_per:
        return "Minutes/Percentage of Total";
    case ReportTime::hours_per:
        return "Hours/Percentage of Total";
    default:
        return "Minutes";
    }
}

bool per_format(ReportTime t) {
    return t == ReportTime::seconds_per || t == ReportTime::minutes_per ||
           t == ReportTime::hours_per;
}

SreportArgs parse_sreport_args(std::span<const std::string> args) {
    SreportArgs a;
    ParsedArgs parsed = parse_options(args, kSpecs, false);
    for (const auto &o : parsed.opts) {
        if (take_common(a, o)) continue;
        const std::string v = o.value.value_or("");
        switch (o.id) {
        case kAllClusters:
            a.all_clusters = true;
            break;
        case kCluster:
            append(a.clusters, v);
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
        case kSort:
            if (abbreviates(v, "Name", 1))
                a.sort_by_name = true;
            else if (iequals(v, "time"))
                a.sort_by_name = false;
            else
                a.warnings.push_back("unknown timesort format " + v);
            break;
        case kTime:
            if (!parse_report_time(v, a.time)) a.warnings.push_back("unknown time format " + v);
            break;
        case kTres:
            if (!iequals(v, "cpu"))
                throw UsageError("only the cpu TRES is reported (-T " + v + ")");
            break;
        default:
            break; // -Q, -i, --federation, --local: nothing to do here
        }
    }
    a.words = std::move(parsed.positionals);
    return a;
}

ReportWindow report_window(int64_t start, int64_t end, int64_t now) {
    if (end > now) end = now;
    ReportWindow w;
    w.end = end ? round_to_hour(end) : midnight(now, 0);
    w.start = start ? round_to_hour(start) : midnight(now, 1);
    if (w.end - w.start < 3600) w.end = w.start + 3600;
    return w;
}

ReportRequest parse_report_request(const std::vector<std::string> &words, const SreportArgs &a,
                                   int64_t now) {
    const std::string &first = words.at(0);
    const bool cluster = abbreviates(first, "cluster", 2);
    if (!cluster && !abbreviates(first, "job", 1)) {
        if (abbreviates(first, "user", 1) || abbreviates(first, "reservation", 2) ||
            abbreviates(first, "resv", 2) || abbreviates(first, "association", 1))
            throw ParseError("sreport: error: the " + to_lower(first) +
                             " reports are not supported by Drover");
        throw ParseError("invalid keyword: " + first);
    }
    if (words.size() < 2) throw ParseError("too few arguments for keyword:" + first);
    ReportRequest r;
    r.kind = report_kind(cluster ? "cluster" : "job", words[1]);
    r.clusters = a.clusters;
    r.all_clusters = a.all_clusters;
    int64_t start = 0, end = 0;
    for (std::size_t i = 2; i < words.size(); ++i) {
        Cond c(words[i]);
        if (take_time(c, now, start, end)) continue;
        if (r.kind == ReportKind::utilization)
            utilization_condition(r, c);
        else if (r.kind == ReportKind::sizes_by_account)
            job_condition(r, c);
        else
            assoc_condition(r, c);
    }
    if (r.kind == ReportKind::sizes_by_account && !r.individual && r.grouping.empty())
        r.grouping = {50, 250, 500, 1000};
    r.window = report_window(start, end, now);
    return r;
}

std::span<const OptSpec> sreport_options() {
    return kSpecs;
}

} // namespace drover::cli
