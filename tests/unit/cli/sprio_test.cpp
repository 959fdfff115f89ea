// sprio_test.cpp - sprio as Slurm 23.11's sprio(1) and src/sprio describe it: its options and
// their mistakes, the default formats (a column for each factor with a weight), -l, -n, -w, -o,
// -S, and the exact text: right-justified "%.N" and cut fields, weighted values as whole numbers,
// normalised ones with seven decimals, the priority over 2^32-1 with fourteen.
#include <gtest/gtest.h>

#include "cli/options.hpp"
#include "cli/sprio_args.hpp"
#include "cli/sprio_fields.hpp"
#include "common/error.hpp"

using namespace drover;
using namespace drover::cli;

namespace {

SprioArgs parse(std::vector<std::string> args, const EnvVars &env = {}) {
    return parse_sprio_args(args, env);
}

std::string parse_error(std::vector<std::string> args) {
    try {
        parse(std::move(args));
    } catch (const ParseError &e) {
        return e.what();
    } catch (const UsageError &e) {
        return std::string("usage: ") + e.what();
    }
    return "(none)";
}

// PriorityWeightAge=1000 PriorityWeightFairshare=10000 PriorityWeightJobSize=1000
// PriorityWeightPartition=10000 PriorityWeightQOS=1000, no association or TRES weight.
SprioFactors weights() {
    SprioFactors w;
    w.age = 1000;
    w.fairshare = 10000;
    w.job_size = 1000;
    w.partition = 10000;
    w.qos = 1000;
    return w;
}

SprioJob fred() {
    SprioJob j{65539, "fred", "physics", "debug", "normal"};
    SprioFactors f;
    f.age = 0.5;
    f.assoc = 0.3; // no weight: shows as 0
    f.fairshare = 0.516647;
    f.job_size = 1.0;
    f.partition = 1.0;
    f.qos = 0;
    j.factors = f;
    return j;
}

SprioJob other() {
    SprioJob j{65540, "averylongusername", "chemistry", "longpartitionname", "high"};
    SprioFactors f;
    f.age = 0.25;
    f.fairshare = 0.9;
    f.job_size = 0.1;
    f.partition = 0.5;
    f.qos = 1.0;
    f.site = 10;
    f.nice = 5;
    j.factors = f;
    return j;
}

// The two jobs, not in job id order (sprio sorts by job id unless -S says otherwise).
SprioReport report() {
    return SprioReport{weights(), {other(), fred()}};
}

std::string text(const std::string &fmt, const SprioReport &r, SprioOutput out = {}) {
    return sprio_text(sprio_format(fmt), r, out);
}

std::string default_text(const SprioReport &r, SprioLayout layout = {}, SprioOutput out = {}) {
    return text(sprio_default_format(r.weights, layout), r, out);
}

} // namespace

TEST(SprioArgs, JobsUsersPartitionsAndFlags) {
    SprioArgs a = parse({"-j12,13", "-h", "-n", "-w", "-p", "a,b", "-u", "root,x", "--users=fred",
                         "-S", "-y", "-M", "c1", "-v", "-v"});
    EXPECT_TRUE(a.job_flag);
    EXPECT_EQ(a.jobs, "12,13");
    EXPECT_EQ(a.job_ids, (std::vector<uint32_t>{12, 13}));
    EXPECT_TRUE(a.noheader && a.normalized && a.weights);
    EXPECT_FALSE(a.long_list);
    EXPECT_EQ(sprio_partitions(a), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(a.users, "fred") << "the last -u wins, as in Slurm";
    EXPECT_EQ(a.sort, "-y");
    EXPECT_EQ(a.clusters, "c1");
    EXPECT_EQ(a.verbose, 2);
    EXPECT_FALSE(a.fatal || a.unrecognized);

    // -j's argument is optional: the next word is its list, and replaces one given with it.
    EXPECT_EQ(parse({"-j", "14"}).job_ids, (std::vector<uint32_t>{14}));
    EXPECT_EQ(parse({"--jobs=15", "16"}).jobs, "16");
    SprioArgs bare = parse({"-j"});
    EXPECT_TRUE(bare.job_flag);
    EXPECT_FALSE(bare.jobs.has_value()) << "a bare -j asks for all jobs";
    EXPECT_EQ(parse({"--jobs=17_3"}).job_ids, (std::vector<uint32_t>{17}));

    SprioArgs fed = parse({"--federation", "--local", "--sib", "--sibling", "--helpformat"});
    EXPECT_TRUE(fed.helpformat);
    EXPECT_TRUE(parse({"--help"}).help);
    EXPECT_TRUE(parse({"--usage"}).usage);
    EXPECT_TRUE(parse({"-V"}).version);
    EXPECT_TRUE(parse({"--long"}).long_list);
    EXPECT_EQ(parse({"--format=%i"}).format, "%i");
    EXPECT_EQ(parse({"--cluster=c2"}).clusters, "c2");
}

TEST(SprioArgs, MistakesAsSlurmReportsThem) {
    EXPECT_EQ(parse_error({"-jx"}), "Invalid job id: x");
    EXPECT_EQ(parse_error({"-j", "12,y"}), "Invalid job id: y");
    EXPECT_EQ(parse_error({"--bogus"}), "usage: unrecognized option '--bogus'");
    EXPECT_EQ(parse_error({"-o"}), "usage: option requires an argument -- 'o'");
    // A word that is no option and no -j list: Slurm's "Unrecognized option" after --help's turn.
    EXPECT_EQ(parse({"extra"}).unrecognized, "extra");
    EXPECT_EQ(parse({"-j", "12", "extra"}).unrecognized, "extra");
    EXPECT_EQ(parse({"-l", "-o", "%i"}).fatal,
              "Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and "
              "retry.");
}

TEST(SprioArgs, EnvironmentGivesWayToTheCommandLine) {
    EnvVars env = {{"SPRIO_FORMAT", "%.7i %u"}, {"SLURM_CLUSTERS", "c3"}};
    SprioArgs a = parse({}, env);
    EXPECT_EQ(a.format, "%.7i %u");
    EXPECT_EQ(a.clusters, "c3");
    EXPECT_EQ(parse({"-o", "%i"}, env).format, "%i");
    EXPECT_EQ(parse({"-M", "c4"}, env).clusters, "c4");
    SprioArgs l = parse({"-l"}, env);
    EXPECT_FALSE(l.format.has_value()) << "-l keeps SPRIO_FORMAT out";
    EXPECT_FALSE(l.fatal.has_value());
}

TEST(SprioArgs, UsersClustersAndVerboseList) {
    SprioUsers u = resolve_sprio_users("root,no_such_user_for_sprio,1234");
    EXPECT_EQ(u.uids, (std::vector<uint32_t>{0, 1234}));
    EXPECT_EQ(u.unknown, (std::vector<std::string>{"no_such_user_for_sprio"}));

    EXPECT_FALSE(sprio_cluster_error("C1", "c1").has_value());
    EXPECT_FALSE(sprio_cluster_error("all", "c1").has_value());
    EXPECT_EQ(sprio_cluster_error("c1,far", "c1"),
              "'c1,far' can't be reached now, or it is an invalid entry for --cluster.  Use "
              "'sacctmgr list clusters' to see available clusters.");

    SprioArgs a = parse({"-v", "-j", "12"});
    EXPECT_EQ(sprio_options_text(a, {}), "-----------------------------\n"
                                         "format     = (null)\n"
                                         "job_flag   = 1\n"
                                         "jobs       = 12\n"
                                         "partition  = (null)\n"
                                         "users      = (null)\n"
                                         "verbose    = 1\n"
                                         "-----------------------------\n\n\n");
    SprioArgs vv = parse({"-vv", "-j13,14", "-u", "root", "-p", "x"});
    EXPECT_EQ(sprio_options_text(vv, {0}), "-----------------------------\n"
                                           "format     = (null)\n"
                                           "job_flag   = 1\n"
                                           "jobs       = 13,14\n"
                                           "partition  = x\n"
                                           "users      = root\n"
                                           "verbose    = 2\n"
                                           "job_list[0] = 13\n"
                                           "job_list[1] = 14\n"
                                           "user_list[0] = 0\n"
                                           "-----------------------------\n\n\n");
}

TEST(SprioFormats, DefaultsFollowTheWeights) {
    SprioFactors all = weights();
    all.assoc = 10;
    all.tres = {{"cpu", 2000}};
    EXPECT_EQ(sprio_default_format(all, {}),
              "%.15i %9r %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.20T");
    EXPECT_EQ(sprio_default_format(all, {true, false, false}),
              "%.15i %9r %10y %10a %10b %10f %10j %10p %10q %20t");
    // No weight, no column; -u adds USER.
    EXPECT_EQ(sprio_default_format(weights(), {false, false, true}),
              "%.15i %9r %.8u %.10Y %.10S %.10A %.10F %.10J %.10P %.10Q");
    EXPECT_EQ(sprio_default_format(SprioFactors{}, {}), "%.15i %9r %.10Y %.10S");
    EXPECT_EQ(sprio_default_format(SprioFactors{}, {true, false, false}), "%.15i %9r %10y");
    // -l shows every factor, whatever the weights.
    EXPECT_EQ(sprio_default_format(SprioFactors{}, {false, true, false}),
              "%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10n %.10Q %.11N "
              "%.20T");
    EXPECT_EQ(sprio_default_format(SprioFactors{}, {true, true, true}),
              "%.15i %9r %.8u %.8o %10y %10a %10b %10f %10j %10p %10n %10q %20t");
}

TEST(SprioText, DefaultWeighted) {
    EXPECT_EQ(default_text(report()),
              "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE  "
              "PARTITION        QOS\n"
              "          65539 debug          16666          0        500       5166       1000  "
              "    10000          0\n"
              "          65540 longparti      15355         10        250       9000        100  "
              "     5000       1000\n");
}

TEST(SprioText, Normalized) {
    EXPECT_EQ(default_text(report(), {true, false, false}),
              "          JOBID PARTITION PRIORITY   AGE        FAIRSHARE  JOBSIZE    PARTITION  "
              "QOS       \n"
              "          65539 debug     0.00000388 0.5000000  0.5166470  1.0000000  1.0000000  "
              "0.0000000 \n"
              "          65540 longparti 0.00000357 0.2500000  0.9000000  0.1000000  0.5000000  "
              "1.0000000 \n");
}

TEST(SprioText, Long) {
    EXPECT_EQ(default_text(report(), {false, true, false}),
              "          JOBID PARTITION     USER  ACCOUNT   PRIORITY       SITE        AGE      "
              "ASSOC  FAIRSHARE    JOBSIZE  PARTITION    QOSNAME        QOS        NICE         "
              "        TRES\n"
              "          65539 debug         fred  physics      16666          0        500      "
              "    0       5166       1000      10000     normal          0           0         "
              "            \n"
              "          65540 longparti averylon chemistr      15355         10        250      "
              "    0       9000        100       5000       high       1000           5         "
              "            \n");
    SprioReport one{weights(), {fred()}};
    EXPECT_EQ(default_text(one, {true, true, false}),
              "          JOBID PARTITION     USER  ACCOUNT PRIORITY   AGE        ASSOC      "
              "FAIRSHARE  JOBSIZE    PARTITION  QOSNAME    QOS        TRES                \n"
              "          65539 debug         fred  physics 0.00000388 0.5000000  0.0000000  "
              "0.5166470  1.0000000  1.0000000  normal     0.0000000                      \n");
}

TEST(SprioText, UsersColumnAndNoHeader) {
    SprioReport r{weights(), {other()}};
    EXPECT_EQ(default_text(r, {false, false, true}),
              "          JOBID PARTITION     USER   PRIORITY       SITE        AGE  FAIRSHARE    "
              "JOBSIZE  PARTITION        QOS\n"
              "          65540 longparti averylon      15355         10        250       9000    "
              "    100       5000       1000\n");
    SprioOutput no_header;
    no_header.header = false;
    EXPECT_EQ(default_text(r, {}, no_header),
              "          65540 longparti      15355         10        250       9000        100  "
              "     5000       1000\n");
}

TEST(SprioText, WeightsLine) {
    SprioOutput w;
    w.weights_only = true;
    EXPECT_EQ(default_text(report(), {}, w),
              "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE  "
              "PARTITION        QOS\n"
              "        Weights                               1       1000      10000       1000  "
              "    10000       1000\n");
}

TEST(SprioText, TresWeightedNormalizedAndWeights) {
    SprioFactors w;
    w.age = 1000;
    w.tres = {{"cpu", 2000}, {"mem", 1000}};
    SprioJob j{7, "fred", "a", "gpu", "normal"};
    SprioFactors f;
    f.age = 0.5;
    f.tres = {{"cpu", 0.5}, {"mem", 0.25}, {"gres/gpu", 0.75}}; // gres/gpu has no weight
    j.factors = f;
    SprioReport r{w, {j}};
    EXPECT_EQ(sprio_default_format(w, {}), "%.15i %9r %.10Y %.10S %.10A %.20T");
    EXPECT_EQ(default_text(r), "          JOBID PARTITION   PRIORITY       SITE        AGE      "
                               "           TRES\n"
                               "              7 gpu             1750          0        500     "
                               "cpu=1000,mem=250\n");
    EXPECT_EQ(default_text(r, {true, false, false}),
              "          JOBID PARTITION PRIORITY   AGE        TRES                \n"
              "              7 gpu       0.00000040 0.5000000  cpu=0.50,mem=0.25   \n");
    SprioOutput only;
    only.weights_only = true;
    only.header = false;
    EXPECT_EQ(default_text(r, {}, only),
              "        Weights                               1       1000    cpu=2000,mem=1000\n");
}

TEST(SprioText, PrioritySetByHand) {
    SprioJob j{9, "fred", "physics", "debug", "normal"};
    j.priority = 1000; // no factors
    SprioReport r{weights(), {j}};
    SprioOutput body;
    body.header = false;
    EXPECT_EQ(default_text(r, {}, body), "              9 debug           1000          0          "
                                         "0          0          0          0          0\n");
    EXPECT_EQ(default_text(r, {true, false, false}, body),
              "              9 debug     1000.00000 0          0          0          0          0  "
              "       \n");
}

TEST(SprioText, CustomFormats) {
    SprioReport r{weights(), {other()}};
    EXPECT_EQ(text("%i|%u|%Y|%y|%N|%c|%S|%o|%n", r),
              "JOBID|USER|PRIORITY|PRIORITY|NICE|CLUSTER|SITE|ACCOUNT|QOSNAME\n"
              "65540|averylongusername|15355|0.00000357511453|5|(null)|10|chemistry|high\n");
    EXPECT_EQ(text("prio:%.6i %u", SprioReport{weights(), {fred()}}),
              "prio: JOBID USER\nprio: 65539 fred\n");
    // An unknown letter is reported and dropped with the text after it.
    SprioFormat f = sprio_format("%.15i %Z %u");
    EXPECT_EQ(f.errors, (std::vector<std::string>{"Invalid job format specification: Z"}));
    EXPECT_EQ(sprio_text(f, r, {}), "          JOBID USER\n          65540 averylongusername\n");
}

TEST(SprioText, JobsNamedButNoneFound) {
    SprioOutput named;
    named.jobs_named = true;
    SprioReport none{weights(), {}};
    EXPECT_EQ(default_text(none, {}, named), "Unable to find jobs matching user/id(s) specified\n");
    named.weights_only = true;
    EXPECT_EQ(default_text(none, {}, named), "Unable to find jobs matching user/id(s) specified\n");
    // Without -j, an empty queue is the header alone.
    EXPECT_EQ(default_text(none, {}, {}),
              "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE  "
              "PARTITION        QOS\n");
}

TEST(SprioSort, KeysAndOrder) {
    auto keys = parse_sprio_sort("u,r,-y");
    ASSERT_EQ(keys.size(), 3u);
    EXPECT_EQ(keys[0].letter, 'u');
    EXPECT_FALSE(keys[0].descending);
    EXPECT_EQ(keys[2].letter, 'y');
    EXPECT_TRUE(keys[2].descending);
    EXPECT_EQ(parse_sprio_sort("-Y+i").size(), 2u);

    auto sort_error = [](const char *spec) {
        try {
            parse_sprio_sort(spec);
        } catch (const ParseError &e) {
            return std::string(e.what());
        }
        return std::string("(none)");
    };
    EXPECT_EQ(sort_error("Z"), "Invalid sort specification: Z");
    EXPECT_EQ(sort_error("X,y,Z"), "Invalid sort specification: Z") << "read from the end";
    EXPECT_EQ(sort_error("B"), "Invalid sort specification: B") << "no assoc key in Slurm";

    SprioReport r = report();
    SprioOutput by_prio;
    by_prio.header = false;
    by_prio.sort = parse_sprio_sort("-Y");
    std::string out = text("%i", r, by_prio);
    EXPECT_EQ(out, "65539\n65540\n") << "16666 before 15355";
    by_prio.sort = parse_sprio_sort("-i");
    EXPECT_EQ(text("%i", r, by_prio), "65540\n65539\n");
    by_prio.sort = parse_sprio_sort("Q,i");
    EXPECT_EQ(text("%i", r, by_prio), "65539\n65540\n") << "weighted QOS 0 before 1000";
    by_prio.sort = parse_sprio_sort("u");
    EXPECT_EQ(text("%i", r, by_prio), "65540\n65539\n") << "averylongusername before fred";
}

TEST(SprioText, PriorityIsAtLeastOne) {
    SprioJob j{3, "fred", "a", "p", "normal"};
    SprioFactors f;
    f.nice = 100;
    j.factors = f;
    EXPECT_EQ(sprio_priority(j, weights()), 1);
    EXPECT_EQ(text("%Y %.10S %N", SprioReport{weights(), {j}}),
              "PRIORITY       SITE NICE\n1          0 100\n");
}

TEST(SprioText, HelpFormatAndPluginMessage) {
    EXPECT_EQ(sprio_format_letters(), "%a    %A    %b    %B    %c    %f    %F    %i    \n"
                                      "%j    %J    %n    %N    %o    %p    %P    %r    \n"
                                      "%S    %q    %Q    %u    %y    %Y    %t    %T    \n");
    EXPECT_EQ(sprio_plugin_error("priority/basic"),
              "You are not running a supported priority plugin\n(priority/basic).\n"
              "Only 'priority/multifactor' is supported.\n");
    EXPECT_EQ(sprio_plugin_error(""),
              "You are not running a supported priority plugin\n(priority/basic).\n"
              "Only 'priority/multifactor' is supported.\n");
    EXPECT_FALSE(sprio_plugin_error("priority/multifactor").has_value());
}
