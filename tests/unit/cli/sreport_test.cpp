// sreport_test.cpp - sreport as Slurm's man page and source describe it: its options, report
// words and conditions, the window (whole hours, 00:00 yesterday to 00:00 today by default), the
// rollup of jobs and node events into Allocated/Down/PLND Down/Idle/Planned/Reported (the
// numbers of the scenario of Slurm's testsuite, test_cluster_utilization), the association rows
// in hierarchical order, job size bins, usage in each -t format, and the report text.
#include <gtest/gtest.h>

#include <drover/views.h>

#include <cstdlib>
#include <ctime>

#include "cli/sreport_args.hpp"
#include "cli/sreport_assoc.hpp"
#include "cli/sreport_fields.hpp"
#include "cli/sreport_sizes.hpp"
#include "cli/sreport_tables.hpp"
#include "cli/sreport_usage.hpp"
#include "common/error.hpp"

using namespace drover;
using namespace drover::cli;

namespace {

constexpr int64_t kNow = 1795688400;     // 2026-11-26T10:20:00 UTC
constexpr int64_t kDay = 1795564800;     // 2026-11-25T00:00:00 UTC
constexpr int64_t kT = kDay + 10 * 3600; // 2026-11-25T10:00:00 UTC

void utc() {
    setenv("TZ", "UTC", 1);
    tzset();
}

ReportRequest request(std::vector<std::string> words, std::vector<std::string> options = {}) {
    utc();
    SreportArgs a = parse_sreport_args(options);
    return parse_report_request(words, a, kNow);
}

std::string error_of(std::vector<std::string> words) {
    try {
        request(std::move(words));
    } catch (const ParseError &e) {
        return e.what();
    }
    return "(none)";
}

std::vector<std::string> headers(const std::vector<SacctmgrField> &fields) {
    std::vector<std::string> out;
    for (const auto &f : fields) out.push_back(f.header + "/" + std::to_string(f.width));
    return out;
}

// Slurm's testsuite scenario: two nodes of 2 CPUs from kT; node0 down from 45 to 75 minutes;
// job0 and job1 (2 CPUs, account1) run back to back from kT for 20 and 45 minutes; job2 (4 CPUs,
// account3 under account2) is eligible at one hour and starts 65 minutes later for a day.
const std::map<std::string, uint32_t> kCpus = {{"node0", 2}, {"node1", 2}};

std::vector<UsageJob> scenario_jobs() {
    return {{"c1", "account1", "user1", 2, 2, kT, kT, kT + 1200},
            {"c1", "account1", "user1", 2, 2, kT + 1200, kT + 1200, kT + 3900},
            {"c1", "account3", "user2", 4, 4, kT + 3600, kT + 7500, kT + 7500 + 86400}};
}

std::vector<UsageEvent> scenario_events() {
    return {{"c1", "node0", DROVER_NODE_DOWN, 0, kT + 45 * 60, kT + 75 * 60}};
}

ReportWindow hours(int64_t from, int n) {
    return {from, from + n * 3600};
}

AssocTree physics_tree() {
    AssocTree t;
    t.add_account("root", "");
    t.add_account("physics", "root");
    t.add_account("theory", "physics");
    t.add_account("chem", "root");
    t.add_user("root", "root");
    t.add_user("physics", "bob");
    t.add_user("physics", "alice");
    t.add_user("theory", "carol");
    t.add_user("chem", "dave");
    return t;
}

const std::map<AssocKey, uint64_t> kUsage = {{{"physics", "alice"}, 100},
                                             {{"physics", "bob"}, 50},
                                             {{"theory", "carol"}, 30},
                                             {{"root", "root"}, 20}};

std::vector<std::string> lines(const std::vector<AssocRow> &rows) {
    std::vector<std::string> out;
    for (const auto &r : rows) out.push_back(r.shown + "|" + r.user + "|" + std::to_string(r.used));
    return out;
}

} // namespace

TEST(SreportArgs, TimeFormats) {
    ReportTime t{};
    ASSERT_TRUE(parse_report_time("s", t));
    EXPECT_EQ(ReportTime::seconds, t);
    ASSERT_TRUE(parse_report_time("SecPer", t));
    EXPECT_EQ(ReportTime::seconds_per, t);
    ASSERT_TRUE(parse_report_time("minper", t));
    EXPECT_EQ(ReportTime::minutes_per, t);
    ASSERT_TRUE(parse_report_time("HOURPER", t));
    EXPECT_EQ(ReportTime::hours_per, t);
    ASSERT_TRUE(parse_report_time("hours", t));
    EXPECT_EQ(ReportTime::hours, t);
    ASSERT_TRUE(parse_report_time("per", t)); // an abbreviation of Percent
    EXPECT_EQ(ReportTime::percent, t);
    EXPECT_FALSE(parse_report_time("minp", t)); // MinPer needs all six letters
    EXPECT_FALSE(parse_report_time("days", t));
    EXPECT_STREQ("Minutes", report_time_name(ReportTime::minutes));
    EXPECT_STREQ("Hours/Percentage of Total", report_time_name(ReportTime::hours_per));
    EXPECT_STREQ("Percentage of Total", report_time_name(ReportTime::percent));
}

TEST(SreportArgs, Options) {
    std::vector<std::string> args = {"cluster", "-t", "hours", "utilization", "-P",
                                     "-n",      "-M", "c1,c2", "-a",          "start=10:00"};
    SreportArgs a = parse_sreport_args(args);
    EXPECT_EQ(ReportTime::hours, a.time);
    EXPECT_TRUE(a.parsable2 && a.noheader && a.all_clusters);
    EXPECT_EQ((std::vector<std::string>{"c1", "c2"}), a.clusters);
    EXPECT_EQ((std::vector<std::string>{"cluster", "utilization", "start=10:00"}), a.words);

    std::vector<std::string> bad_time = {"-t", "days", "-s", "name"};
    a = parse_sreport_args(bad_time);
    EXPECT_EQ(ReportTime::minutes, a.time); // as in Slurm, it goes on with minutes
    EXPECT_EQ((std::vector<std::string>{"unknown time format days"}), a.warnings);
    EXPECT_TRUE(a.sort_by_name);

    std::vector<std::string> gpu = {"-T", "gres/gpu"};
    EXPECT_THROW(parse_sreport_args(gpu), UsageError);
    std::vector<std::string> cpu = {"--tres=cpu", "--federation", "--local", "-Q", "-v"};
    EXPECT_NO_THROW(parse_sreport_args(cpu));
}

TEST(SreportArgs, WindowIsWholeHours) {
    utc();
    // Slurm's default: 00:00 yesterday to 00:00 today.
    ReportWindow w = report_window(0, 0, kNow);
    EXPECT_EQ(kDay, w.start);
    EXPECT_EQ(kDay + 86400, w.end);
    // Minutes and seconds round to the nearest hour, 30 minutes up.
    EXPECT_EQ(kT, report_window(kT + 29 * 60 + 29, 0, kNow).start);
    EXPECT_EQ(kT + 3600, report_window(kT + 29 * 60 + 30, 0, kNow).start);
    // An end after now is now (10:20, so 10:00); a window shorter than an hour is one hour.
    w = report_window(kDay + 86400 + 10 * 3600, kNow + 7200, kNow);
    EXPECT_EQ(kDay + 86400 + 10 * 3600, w.start);
    EXPECT_EQ(w.start + 3600, w.end);
}

TEST(SreportArgs, Reports) {
    ReportRequest r = request({"cluster", "utilization"});
    EXPECT_EQ(ReportKind::utilization, r.kind);
    EXPECT_EQ(kDay, r.window.start);
    EXPECT_EQ(ReportKind::utilization, request({"CL", "ut"}).kind);
    EXPECT_EQ(ReportKind::account_by_user, request({"cluster", "AccountUtilizationByUser"}).kind);
    EXPECT_EQ(ReportKind::account_by_user, request({"cluster", "a"}).kind);
    EXPECT_EQ(ReportKind::user_by_account, request({"cluster", "UserUtilizationByAccount"}).kind);
    EXPECT_EQ(ReportKind::user_by_account, request({"cluster", "ua"}).kind);
    r = request({"job", "sizes"});
    EXPECT_EQ(ReportKind::sizes_by_account, r.kind);
    EXPECT_EQ((std::vector<uint32_t>{50, 250, 500, 1000}), r.grouping);
    EXPECT_EQ(ReportKind::sizes_by_account, request({"j", "SizesByAccount"}).kind);

    EXPECT_EQ("Not valid report bogus\nValid cluster reports are, \"AccountUtilizationByUser\", "
              "\"UserUtilizationByAccount\", \"UserUtilizationByWckey\", \"Utilization\", and "
              "\"WCKeyUtilizationByUser\"",
              error_of({"cluster", "bogus"}));
    EXPECT_EQ("Not valid report top\nValid job reports are, \"SizesByAccount, "
              "SizesByAccountAndWcKey, and  SizesByWckey\"",
              error_of({"job", "top"}));
    EXPECT_EQ("too few arguments for keyword:cluster", error_of({"cluster"}));
    EXPECT_EQ("invalid keyword: frob", error_of({"frob", "x"}));
    EXPECT_NE(std::string::npos, error_of({"user", "top"}).find("not supported by Drover"));
    EXPECT_NE(std::string::npos, error_of({"job", "SizesByWcKey"}).find("not supported"));
}

TEST(SreportArgs, Conditions) {
    ReportRequest r = request({"cluster", "AccountUtilizationByUser", "tree", "users=alice,bob",
                               "accounts=physics", "clusters=c1", "format=Ac%-30,Used",
                               "start=2026-11-25T10:00:00", "end=2026-11-25T12:00:00"});
    EXPECT_TRUE(r.tree);
    EXPECT_EQ((std::vector<std::string>{"alice", "bob"}), r.users);
    EXPECT_EQ((std::vector<std::string>{"physics"}), r.accounts);
    EXPECT_EQ((std::vector<std::string>{"c1"}), r.clusters);
    EXPECT_EQ((std::vector<std::string>{"Ac%-30", "Used"}), r.format);
    EXPECT_EQ(kT, r.window.start);
    EXPECT_EQ(kT + 7200, r.window.end);
    EXPECT_TRUE(r.errors.empty());
    // A bare word is a user there, a cluster in Utilization.
    EXPECT_EQ((std::vector<std::string>{"alice"}), request({"cluster", "ua", "alice"}).users);
    EXPECT_EQ((std::vector<std::string>{"c2"}), request({"cluster", "ut", "c2"}).clusters);
    EXPECT_TRUE(request({"cluster", "ut", "all_clusters"}).all_clusters);
    // An unknown condition is reported and the report still runs.
    r = request({"cluster", "utilization", "colour=red"});
    EXPECT_EQ((std::vector<std::string>{
                  " Unknown condition: colour=red\nUse keyword set to modify value"}),
              r.errors);
    EXPECT_EQ("Invalid time specification: yesterdayish",
              error_of({"cluster", "ut", "start=yesterdayish"}));

    r = request({"job", "sizes", "grouping=2,4", "PrintJobCount", "FlatView", "users=alice",
                 "partitions=debug", "AcctAsParent", "jobs=12,13.0"});
    EXPECT_EQ((std::vector<uint32_t>{2, 4}), r.grouping);
    EXPECT_TRUE(r.print_job_count && r.flat_view && r.acct_as_parent);
    EXPECT_EQ((std::vector<std::string>{"debug"}), r.partitions);
    EXPECT_EQ((std::vector<uint32_t>{12, 13}), r.job_ids);
    r = request({"job", "sizes", "grouping=individual"});
    EXPECT_TRUE(r.individual);
    EXPECT_TRUE(r.grouping.empty());
}

TEST(SreportUsage, FirstHourOfSlurmsScenario) {
    ClusterUsage u = cluster_usage(scenario_jobs(), scenario_events(), kCpus, hours(kT, 1), kNow);
    EXPECT_EQ(4u, u.cpus);
    EXPECT_EQ(14400u, u.reported()); // 4 CPUs for an hour
    EXPECT_EQ(7200u, u.alloc);       // job0 and job1 on 2 CPUs all hour
    EXPECT_EQ(1800u, u.down);        // node0's 15 minutes on 2 CPUs
    EXPECT_EQ(0u, u.planned);
    EXPECT_EQ(5400u, u.idle);
    EXPECT_EQ(0u, u.over);
}

TEST(SreportUsage, PlannedBeyondIdleIsOverCommitted) {
    // The second hour: job2 waits on 4 CPUs all hour, more than is idle.
    ClusterUsage u =
        cluster_usage(scenario_jobs(), scenario_events(), kCpus, hours(kT + 3600, 1), kNow);
    EXPECT_EQ(600u, u.alloc);
    EXPECT_EQ(1800u, u.down);
    EXPECT_EQ(0u, u.idle);
    EXPECT_EQ(12000u, u.planned);
    EXPECT_EQ(2400u, u.over);
    EXPECT_EQ(14400u, u.reported());
    // Both hours: each is capped by itself, then they add up.
    u = cluster_usage(scenario_jobs(), scenario_events(), kCpus, hours(kT, 2), kNow);
    EXPECT_EQ(7800u, u.alloc);
    EXPECT_EQ(3600u, u.down);
    EXPECT_EQ(5400u, u.idle);
    EXPECT_EQ(12000u, u.planned);
    EXPECT_EQ(28800u, u.reported());
}

TEST(SreportUsage, EventsAndOpenRecords) {
    const ReportWindow w = hours(kT, 1);
    // A drained node counts as down, as in Slurm's rollup (every event but maintenance does);
    // a FUTURE or powered down node is planned down.
    std::vector<UsageEvent> events = {
        {"c1", "node0", DROVER_NODE_IDLE, DROVER_NODE_FLAG_DRAIN, kT + 600, kT + 1200},
        {"c1", "node1", DROVER_NODE_FUTURE, 0, kT, kT + 100},
        {"c1", "node1", DROVER_NODE_IDLE, DROVER_NODE_FLAG_POWERED_DOWN, kT + 200, kT + 300}};
    ClusterUsage u = cluster_usage({}, events, kCpus, w, kNow);
    EXPECT_EQ(1200u, u.down);
    EXPECT_EQ(400u, u.planned_down);
    EXPECT_EQ(14400u - 1600u, u.idle);
    // What has not ended counts until now (10:30 here); an event of a node the controller does
    // not know has no CPUs; Idle takes the rest of the hour.
    const int64_t now = kT + 1800;
    std::vector<UsageJob> jobs = {{"c1", "a", "u", 2, 1, kT + 600, kT + 600, 0},
                                  {"c1", "a", "u", 0, 3, kT + 900, 0, 0}};
    events = {{"c1", "node0", DROVER_NODE_DOWN, 0, kT + 1500, 0},
              {"c1", "gone", DROVER_NODE_DOWN, 0, kT, 0}};
    u = cluster_usage(jobs, events, kCpus, w, now);
    EXPECT_EQ(2400u, u.alloc);   // 2 CPUs from 10:10 to 10:30
    EXPECT_EQ(2700u, u.planned); // 3 CPUs waiting from 10:15 to 10:30
    EXPECT_EQ(600u, u.down);     // node0 from 10:25 to 10:30
    EXPECT_EQ(14400u, u.reported());
}

TEST(SreportUsage, AllocatedIsCappedAtTheCluster) {
    std::vector<UsageJob> jobs(3, UsageJob{"c1", "a", "u", 4, 4, kT, kT, kT + 3600});
    ClusterUsage u = cluster_usage(jobs, {}, kCpus, hours(kT, 1), kNow);
    EXPECT_EQ(14400u, u.alloc);
    EXPECT_EQ(0u, u.idle);
}

TEST(SreportUsage, AssocUsageAndJobElapsed) {
    const ReportWindow w = hours(kT + 3600, 1);
    auto usage = assoc_usage(scenario_jobs(), w, kNow);
    EXPECT_EQ(600u, (usage[{"account1", "user1"}])); // job1's last 5 minutes on 2 CPUs
    EXPECT_EQ(0u, usage.count({"account3", "user2"}));
    EXPECT_EQ(300, job_elapsed(scenario_jobs()[1], w));
    EXPECT_EQ(0, job_elapsed(scenario_jobs()[0], w));
    EXPECT_EQ(3600, job_elapsed({"c1", "a", "u", 1, 1, kT, kT + 3000, 0}, w)); // to the end
    EXPECT_EQ(0, job_elapsed({"c1", "a", "u", 1, 1, kT, 0, kT + 4000}, w));    // never ran
    EXPECT_EQ(300, overlap(kT + 3300, kT + 3900, kT, kT + 3600));
    EXPECT_EQ(0, overlap(kT + 4000, kT + 5000, kT, kT + 3600));
}

TEST(SreportAssoc, AccountRowsInHierarchicalOrder) {
    AssocTree t = physics_tree();
    // Each account with everything under it, its users by name, then its sub-accounts; an
    // association that used nothing (chem, dave) is not listed.
    EXPECT_EQ(
        (std::vector<std::string>{"root||200", "root|root|20", "physics||180", "physics|alice|100",
                                  "physics|bob|50", "theory||30", "theory|carol|30"}),
        lines(account_rows(t, kUsage, {}, {}, false)));
    // Tree: one space deeper than the parent's line.
    EXPECT_EQ((std::vector<std::string>{"root||200", " root|root|20", " physics||180",
                                        "  physics|alice|100", "  physics|bob|50", "  theory||30",
                                        "   theory|carol|30"}),
              lines(account_rows(t, kUsage, {}, {}, true)));
    // Accounts=: those accounts and what is under them, from the first printed line.
    EXPECT_EQ((std::vector<std::string>{"physics||180", " physics|alice|100", " physics|bob|50",
                                        " theory||30", "  theory|carol|30"}),
              lines(account_rows(t, kUsage, {"physics"}, {}, true)));
    // Users=: those users' lines only.
    EXPECT_EQ((std::vector<std::string>{"physics|alice|100", "theory|carol|30"}),
              lines(account_rows(t, kUsage, {}, {"carol", "alice"}, true)));
}

TEST(SreportAssoc, UserRowsByUsage) {
    AssocTree t = physics_tree();
    EXPECT_EQ((std::vector<std::string>{"physics|alice|100", "physics|bob|50", "theory|carol|30",
                                        "root|root|20"}),
              lines(user_rows(t, kUsage, {}, {}, false)));
    auto usage = kUsage;
    usage[{"theory", "bob"}] = 50; // a tie: by name, then as the tree has them
    t.add_usage(usage);
    EXPECT_EQ((std::vector<std::string>{"physics|alice|100", "physics|bob|50", "theory|bob|50",
                                        "theory|carol|30", "root|root|20"}),
              lines(user_rows(t, usage, {}, {}, false)));
    EXPECT_EQ((std::vector<std::string>{"physics|alice|100", "physics|bob|50", "theory|bob|50",
                                        "theory|carol|30", "root|root|20"}),
              lines(user_rows(t, usage, {}, {}, true)));
    // Accounts= is exact here (no sub-accounts).
    EXPECT_EQ((std::vector<std::string>{"physics|alice|100", "physics|bob|50"}),
              lines(user_rows(t, usage, {"physics"}, {}, false)));
}

TEST(SreportAssoc, UsageWithoutAssociations) {
    AssocTree t;
    t.add_usage({{{"lab", "eve"}, 10}});
    EXPECT_TRUE(t.has_account("root"));
    EXPECT_EQ("root", t.parent("lab"));
    EXPECT_EQ((std::vector<std::string>{"root||10", "lab||10", "lab|eve|10"}),
              lines(account_rows(t, {{{"lab", "eve"}, 10}}, {}, {}, false)));
    EXPECT_TRUE(t.within("lab", "root"));
    EXPECT_FALSE(t.within("root", "lab"));
}

TEST(SreportSizes, Bins) {
    std::vector<std::string> names;
    for (const auto &b : size_bins({50, 250, 500, 1000}, false, {}))
        names.push_back(size_bin_header(b, false));
    EXPECT_EQ((std::vector<std::string>{"0-49 CPUs", "50-249 CPUs", "250-499 CPUs", "500-999 CPUs",
                                        ">= 1000 CPUs"}),
              names);
    names.clear();
    for (const auto &b : size_bins({}, true, {4, 1, 4})) names.push_back(size_bin_header(b, true));
    EXPECT_EQ((std::vector<std::string>{"1 CPUs", "4 CPUs"}), names);
}

TEST(SreportSizes, LinesByAccount) {
    utc();
    AssocTree t;
    t.add_account("root", "");
    t.add_account("account1", "root");
    t.add_account("account2", "root");
    t.add_account("account3", "account2");
    std::vector<UsageJob> jobs = scenario_jobs();
    jobs.push_back({"c1", "root", "root", 1, 1, kT, kT, kT + 60}); // in root itself
    ReportRequest r = request({"job", "sizes", "grouping=2,4", "AcctAsParent"});
    r.window = hours(kT, 1);
    const auto bins = job_size_bins(jobs, r);
    ASSERT_EQ(3u, bins.size());
    // AcctAsParent: a line for each account under root, as in Slurm's testsuite.
    SizeReport s = job_sizes(jobs, t, r, bins);
    ASSERT_EQ(1u, s.rows.size());
    EXPECT_EQ("account1", s.rows[0].account);
    EXPECT_EQ((std::vector<uint64_t>{0, 7200, 0}), s.rows[0].secs);
    EXPECT_EQ((std::vector<uint64_t>{0, 2, 0}), s.rows[0].jobs);
    EXPECT_EQ(7200u, s.cluster_secs);
    // By default one line for root with every job.
    r.acct_as_parent = false;
    s = job_sizes(jobs, t, r, bins);
    ASSERT_EQ(1u, s.rows.size());
    EXPECT_EQ("root", s.rows[0].account);
    EXPECT_EQ((std::vector<uint64_t>{60, 7200, 0}), s.rows[0].secs);
    // Accounts=: a line for each, with the accounts under it; FlatView: each job's account.
    r.window = hours(kT, 3);
    r.accounts = {"account2"};
    s = job_sizes(jobs, t, r, bins);
    ASSERT_EQ(1u, s.rows.size());
    EXPECT_EQ((std::vector<uint64_t>{0, 0, 4 * 3300}), s.rows[0].secs);
    r.flat_view = true;
    s = job_sizes(jobs, t, r, bins);
    ASSERT_EQ(3u, s.rows.size());
    EXPECT_EQ("account3", s.rows[1].account);
}

TEST(SreportFields, UsageValues) {
    EXPECT_EQ("4980", report_time_str(4980, 39840, ReportTime::seconds));
    EXPECT_EQ("83", report_time_str(4980, 39840, ReportTime::minutes));
    EXPECT_EQ("2", report_time_str(90, 0, ReportTime::minutes)); // printf's rounding
    EXPECT_EQ("1", report_time_str(4980, 39840, ReportTime::hours));
    EXPECT_EQ("12.50%", report_time_str(4980, 39840, ReportTime::percent));
    EXPECT_EQ("4980(12.50%)", report_time_str(4980, 39840, ReportTime::seconds_per));
    EXPECT_EQ("83(12.50%)", report_time_str(4980, 39840, ReportTime::minutes_per));
    EXPECT_EQ("2(50.00%)", report_time_str(7200, 14400, ReportTime::hours_per));
    EXPECT_EQ("0.00%", report_time_str(0, 0, ReportTime::percent));
    EXPECT_EQ(8, usage_col_width(0, ReportTime::minutes));
    EXPECT_EQ(8, usage_col_width(99999999, ReportTime::minutes));
    EXPECT_EQ(9, usage_col_width(100000000, ReportTime::seconds));
    EXPECT_EQ(10, usage_col_width(1000000000, ReportTime::seconds));
    EXPECT_EQ(17, usage_col_width(0, ReportTime::minutes_per));
}

TEST(SreportFields, Formats) {
    std::vector<std::string> errors;
    // Slurm 23.11's default: "planned" is PlannedDown's abbreviation, "res" the Planned column.
    auto f = parse_cluster_format(default_format(ReportKind::utilization), ReportTime::minutes,
                                  false, errors);
    EXPECT_EQ((std::vector<std::string>{"Cluster/9", "Allocated/12", "Down/10", "PLND Down/10",
                                        "Idle/12", "Planned/9", "Reported/12"}),
              headers(f));
    f = parse_cluster_format({"count", "TresName", "over", "acc%20", "bogus%5", "Energy"},
                             ReportTime::hours_per, false, errors);
    EXPECT_EQ((std::vector<std::string>{"TRES Count/10", "TRES Name/14", "Over Comm/18",
                                        "Account/20", "Energy/18"}),
              headers(f));
    EXPECT_EQ((std::vector<std::string>{" Unknown field 'bogus'"}), errors);
    f = parse_cluster_format({"Ac", "Login", "Proper"}, ReportTime::minutes, true, errors);
    EXPECT_EQ((std::vector<std::string>{"Account/-20", "Login/9", "Proper Name/15"}), headers(f));
    f = parse_job_format(default_format(ReportKind::sizes_by_account), errors);
    EXPECT_EQ((std::vector<std::string>{"Cluster/9", "Account/9"}), headers(f));
}

TEST(SreportTables, Utilization) {
    utc();
    ReportRequest r = request({"cluster", "utilization"});
    r.window = hours(kT, 1);
    std::vector<ClusterData> c = {
        {"c1", cluster_usage(scenario_jobs(), scenario_events(), kCpus, r.window, kNow), {}, {}},
        {"c9", {}, {}, {}}}; // no CPUs known: no line
    std::vector<std::string> errors;
    // Usage columns 8 wide (values below 10^8 seconds): headers cut without a '+'.
    EXPECT_EQ("--------------------------------------------------------------------------------\n"
              "Cluster Utilization 2026-11-25T10:00:00 - 2026-11-25T10:59:59\n"
              "Usage reported in CPU Minutes\n"
              "--------------------------------------------------------------------------------\n"
              "  Cluster Allocate     Down PLND Dow     Idle  Planned Reported \n"
              "--------- -------- -------- -------- -------- -------- -------- \n"
              "       c1      120       30        0       90        0      240 \n",
              utilization_report(c, r, {FieldLayout::fixed, true, ReportTime::minutes}, errors));
    EXPECT_EQ(
        "c1|7200|1800|0|5400|0|14400\n",
        utilization_report(c, r, {FieldLayout::parsable2, false, ReportTime::seconds}, errors));
    EXPECT_EQ(
        "c1|50.00%|12.50%|0.00%|37.50%|0.00%|100.00%|\n",
        utilization_report(c, r, {FieldLayout::parsable, false, ReportTime::percent}, errors));
    const std::string with_header =
        utilization_report(c, r, {FieldLayout::parsable, true, ReportTime::percent}, errors);
    EXPECT_NE(std::string::npos, with_header.find("\nUsage reported in Percentage of Total\n"));
    EXPECT_NE(std::string::npos,
              with_header.find("\nCluster|Allocated|Down|PLND Down|Idle|Planned|Reported|\n"));
    r.format = {"Cl", "count", "over", "res"};
    EXPECT_EQ(
        "c1|4|0(0.00%)|0(0.00%)\n",
        utilization_report(c, r, {FieldLayout::parsable2, false, ReportTime::seconds_per}, errors));
    EXPECT_TRUE(errors.empty());
}

TEST(SreportTables, AccountUtilizationByUser) {
    utc();
    ReportRequest r = request({"cluster", "AccountUtilizationByUser"});
    r.window = hours(kT, 1);
    const std::map<AssocKey, uint64_t> usage = {{{"physics", "u_alice"}, 3600},
                                                {{"theory", "u_carol"}, 1800}};
    AssocTree t = physics_tree();
    t.add_usage(usage);
    ClusterUsage u = cluster_usage(scenario_jobs(), {}, kCpus, r.window, kNow); // 14400 reported
    std::vector<ClusterData> c = {{"c1", u, account_rows(t, usage, {}, {}, false), {}}};
    std::vector<std::string> errors;
    EXPECT_EQ("--------------------------------------------------------------------------------\n"
              "Cluster/Account/User Utilization 2026-11-25T10:00:00 - 2026-11-25T10:59:59 "
              "(3600 secs)\n"
              "Usage reported in CPU Seconds\n"
              "--------------------------------------------------------------------------------\n"
              "  Cluster         Account     Login     Proper Name     Used   Energy \n"
              "--------- --------------- --------- --------------- -------- -------- \n"
              "       c1            root                               5400        0 \n"
              "       c1         physics                               5400        0 \n"
              "       c1         physics   u_alice                     3600        0 \n"
              "       c1          theory                               1800        0 \n"
              "       c1          theory   u_carol                     1800        0 \n",
              assoc_report(c, r, {FieldLayout::fixed, true, ReportTime::seconds}, errors));
    // Tree: the Account column 20 wide, left-justified.
    r.tree = true;
    c[0].rows = account_rows(t, usage, {"physics"}, {}, true);
    const std::string tree =
        assoc_report(c, r, {FieldLayout::fixed, true, ReportTime::seconds}, errors);
    EXPECT_EQ("  Cluster Account                  Login     Proper Name     Used   Energy \n"
              "--------- -------------------- --------- --------------- -------- -------- \n"
              "       c1 physics                                            5400        0 \n"
              "       c1  physics               u_alice                     3600        0 \n"
              "       c1  theory                                            1800        0 \n"
              "       c1   theory               u_carol                     1800        0 \n",
              tree.substr(tree.find("  Cluster")));
    // UserUtilizationByAccount: percentages of the cluster's reported time.
    r = request({"cluster", "UserUtilizationByAccount"});
    c[0].rows = user_rows(t, usage, {}, {}, false);
    EXPECT_EQ("c1|u_alice||physics|3600(25.00%)|0(0.00%)\n"
              "c1|u_carol||theory|1800(12.50%)|0(0.00%)\n",
              assoc_report(c, r, {FieldLayout::parsable2, false, ReportTime::seconds_per}, errors));
}

TEST(SreportTables, SizesByAccount) {
    utc();
    ReportRequest r = request({"job", "sizes", "grouping=2,4", "AcctAsParent"});
    r.window = hours(kT, 1);
    AssocTree t;
    t.add_account("root", "");
    t.add_account("account1", "root");
    const auto bins = job_size_bins(scenario_jobs(), r);
    std::vector<ClusterData> c = {{"c1", {}, {}, job_sizes(scenario_jobs(), t, r, bins)}};
    std::vector<std::string> errors;
    EXPECT_EQ("--------------------------------------------------------------------------------\n"
              "Job Sizes 2026-11-25T10:00:00 - 2026-11-25T10:59:59 (3600 secs)\n"
              "Time reported in Seconds\n"
              "--------------------------------------------------------------------------------\n"
              "  Cluster   Account      0-1 CPUs      2-3 CPUs     >= 4 CPUs % of cluster \n"
              "--------- --------- ------------- ------------- ------------- ------------ \n"
              "       c1  account1             0          7200             0      100.00% \n",
              sizes_report(c, bins, r, {FieldLayout::fixed, true, ReportTime::seconds}, errors));
    r.print_job_count = true;
    EXPECT_EQ(
        "c1|account1|0|2|0|100.00%\n",
        sizes_report(c, bins, r, {FieldLayout::parsable2, false, ReportTime::seconds}, errors));
    const std::string counted =
        sizes_report(c, bins, r, {FieldLayout::parsable2, true, ReportTime::seconds}, errors);
    EXPECT_NE(std::string::npos, counted.find("\nUnits are in number of jobs ran\n"));
    EXPECT_NE(std::string::npos,
              counted.find("\nCluster|Account|0-1 CPUs|2-3 CPUs|>= 4 CPUs|% of cluster\n"));
}
