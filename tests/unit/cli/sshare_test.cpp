// sshare_test.cpp - sshare as Slurm 23.11's source describes it: its options (sshare.c), the
// fields, widths and default formats (process.c), the Account column's tree names
// (slurmdb_tree_name_get), and values as print_fields prints them: strings right-justified in
// their width (Account left-justified in 20) and cut with '+', "%f" doubles, integers never cut,
// blanks for unset values, '|' after each field with -p and between fields with -P.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cli/options.hpp"
#include "cli/sshare_args.hpp"
#include "cli/sshare_fields.hpp"
#include "common/error.hpp"

using namespace drover;
using namespace drover::cli;

namespace {

SshareArgs args(std::vector<std::string> v) {
    return parse_sshare_args(v);
}

template <class E>
std::string error_of(std::vector<std::string> v) {
    try {
        args(std::move(v));
    } catch (const E &e) {
        return e.what();
    }
    return "(none)";
}

std::string format_error(std::vector<std::string> items) {
    try {
        parse_share_format(items);
    } catch (const ParseError &e) {
        return e.what();
    }
    return "(none)";
}

const double kInf = std::numeric_limits<double>::infinity();

ShareLine account(std::string name, uint32_t depth, uint32_t shares, double norm, double usage,
                  double eff) {
    ShareLine l;
    l.cluster = "c1";
    l.account = std::move(name);
    l.depth = depth;
    l.shares_raw = shares;
    l.shares_norm = norm;
    l.usage_raw = usage;
    l.usage_norm = usage / 1000;
    l.usage_eff = eff;
    l.fairshare = 0.75; // shown only by classic fair-share
    l.level_fs = 1.5;
    return l;
}

ShareLine user(std::string acct, std::string name, uint32_t depth, double norm, double usage,
               double eff, double fs, double level) {
    ShareLine l = account(std::move(acct), depth, 1, norm, usage, eff);
    l.user = std::move(name);
    l.fairshare = fs;
    l.level_fs = level;
    l.tres_run_mins = "cpu=0,mem=0";
    return l;
}

// root; its user root; physics under root with alice; theory (FairShare=parent) under physics
// with bob.
ShareTable tree() {
    ShareTable t;
    t.lines = {
        account("root", 0, 1, 1.0, 1000.7, 1.0),
        user("root", "root", 1, 0.5, 0, 0, 1.0, kInf),
        account("physics", 1, 1, 0.5, 1000, 1.0),
        user("physics", "alice", 2, 1.0, 1000, 1.0, 0.5, 1.0),
        account("theory", 2, kSharesParent, 0, 0, 0),
        user("theory", "bob", 3, 1.0, 0, 0, 1.0, kInf),
    };
    return t;
}

std::vector<ShareField> fields(bool fair_tree, bool long_format, bool partitions = false) {
    return parse_share_format(share_default_format(fair_tree, long_format, partitions));
}

std::vector<std::string> headers(const std::vector<ShareField> &f) {
    std::vector<std::string> out;
    for (const auto &x : f) out.push_back(x.header + "/" + std::to_string(x.width));
    return out;
}

const std::string kHeader = "Account                    User  RawShares  NormShares    RawUsage "
                            " EffectvUsage  FairShare \n";
const std::string kDashes = "-------------------- ---------- ---------- ----------- ----------- "
                            "------------- ---------- \n";

} // namespace

TEST(SshareArgs, Defaults) {
    SshareArgs a = args({});
    EXPECT_FALSE(a.all_users);
    EXPECT_FALSE(a.long_format);
    EXPECT_FALSE(a.noheader);
    EXPECT_FALSE(a.users_only);
    EXPECT_FALSE(a.partitions);
    EXPECT_EQ(a.layout, FieldLayout::fixed);
    EXPECT_TRUE(a.users.empty());
    EXPECT_TRUE(a.accounts.empty());
    EXPECT_TRUE(a.format.empty());
    EXPECT_EQ(a.getopt_error, 0);
}

TEST(SshareArgs, ShortAndLongOptions) {
    SshareArgs a = args({"-l", "-m", "-U", "-n", "-v", "-v", "--clusters=c1,c2"});
    EXPECT_TRUE(a.long_format);
    EXPECT_TRUE(a.partitions);
    EXPECT_TRUE(a.users_only);
    EXPECT_TRUE(a.noheader);
    EXPECT_EQ(a.verbose, 2);
    EXPECT_EQ(a.clusters, (std::vector<std::string>{"c1", "c2"}));
    // -h is --noheader's other letter; --help has no letter.
    EXPECT_TRUE(args({"-h"}).noheader);
    EXPECT_FALSE(args({"-h"}).help);
    EXPECT_TRUE(args({"--help"}).help);
    EXPECT_TRUE(args({"--usage"}).usage);
    EXPECT_TRUE(args({"-V"}).version);
    EXPECT_TRUE(args({"--long", "--partition", "--Users", "--noheader"}).users_only);
    EXPECT_TRUE(args({"-e"}).help_format);
    EXPECT_TRUE(args({"--helpformat"}).help_format);
    EXPECT_EQ(args({"-M", "c3"}).clusters, (std::vector<std::string>{"c3"}));
    EXPECT_EQ(args({"--cluster", "c3"}).clusters, (std::vector<std::string>{"c3"}));
    // Words that are not options are ignored, as getopt leaves them to a sshare that ignores them.
    EXPECT_TRUE(args({"stray", "-l"}).long_format);
}

TEST(SshareArgs, ParsableTheLastOneWins) {
    EXPECT_EQ(args({"-p"}).layout, FieldLayout::parsable);
    EXPECT_EQ(args({"-P"}).layout, FieldLayout::parsable2);
    EXPECT_EQ(args({"-p", "-P"}).layout, FieldLayout::parsable2);
    EXPECT_EQ(args({"--parsable2", "--parsable"}).layout, FieldLayout::parsable);
}

TEST(SshareArgs, UsersAndAll) {
    EXPECT_EQ(args({"-u", "bob,alice,bob"}).users, (std::vector<std::string>{"bob", "alice"}));
    EXPECT_EQ(args({"--users=Bob"}).users, (std::vector<std::string>{"Bob"}));
    // -a after -u asks for everyone; -u after -a takes -a back; -u -1 is -a.
    SshareArgs all = args({"-u", "bob", "-a"});
    EXPECT_TRUE(all.all_users);
    EXPECT_TRUE(all.users.empty());
    SshareArgs bob = args({"-a", "-u", "bob"});
    EXPECT_FALSE(bob.all_users);
    EXPECT_EQ(bob.users, (std::vector<std::string>{"bob"}));
    EXPECT_TRUE(args({"-u", "-1"}).all_users);
    EXPECT_TRUE(args({"--all"}).all_users);
}

TEST(SshareArgs, AccountsAndFormatAreLowerCasedOnce) {
    EXPECT_EQ(args({"-A", "Physics,chem", "--accounts=physics"}).accounts,
              (std::vector<std::string>{"physics", "chem"}));
    EXPECT_EQ(args({"-o", "User,RawU%15", "--format=user,Eff"}).format,
              (std::vector<std::string>{"user", "rawu%15", "eff"}));
}

TEST(SshareArgs, RefusedAndRejectedOptions) {
    EXPECT_EQ(error_of<ParseError>({"--json"}), "--json is not supported by Drover");
    EXPECT_EQ(error_of<ParseError>({"--yaml=v0.0.40"}), "--yaml is not supported by Drover");
    EXPECT_EQ(error_of<ParseError>({"--autocomplete=x"}),
              "--autocomplete is not supported by Drover");
    // Slurm's getopt string has q and t, its switch does not: "getopt error, returned q".
    EXPECT_EQ(args({"-q"}).getopt_error, 'q');
    EXPECT_EQ(args({"-t", "minutes"}).getopt_error, 't');
    EXPECT_EQ(error_of<UsageError>({"--bogus"}), "unrecognized option '--bogus'");
    EXPECT_EQ(error_of<UsageError>({"-x"}), "invalid option -- 'x'");
    EXPECT_EQ(error_of<UsageError>({"-A"}), "option requires an argument -- 'A'");
    // --u abbreviates --users and --usage (--Users differs in case).
    EXPECT_EQ(error_of<UsageError>({"--u"}),
              "option '--u' is ambiguous; possibilities: '--users' '--usage'");
}

TEST(SshareArgs, VerboseLines) {
    EXPECT_EQ(sshare_verbose_text(args({}), {}, "carol"),
              "Users requested:\n\t: carol\nAccounts requested:\n\t: all\n");
    EXPECT_EQ(sshare_verbose_text(args({"-a", "-A", "a,b"}), {}, "carol"),
              "Users requested:\n\t: all\nAccounts requested:\n\t: a\n\t: b\n");
    EXPECT_EQ(sshare_verbose_text(args({"-u", "x,y"}), {"x", "y"}, "carol"),
              "Users requested:\n\t: x\n\t: y\nAccounts requested:\n\t: all\n");
}

TEST(SshareFields, DefaultFormats) {
    EXPECT_EQ(headers(fields(true, false)),
              (std::vector<std::string>{"Account/-20", "User/10", "RawShares/10", "NormShares/11",
                                        "RawUsage/11", "EffectvUsage/13", "FairShare/10"}));
    EXPECT_EQ(
        headers(fields(true, true)),
        (std::vector<std::string>{"Account/-20", "User/10", "RawShares/10", "NormShares/11",
                                  "RawUsage/11", "NormUsage/11", "EffectvUsage/13", "FairShare/10",
                                  "LevelFS/10", "GrpTRESMins/30", "TRESRunMins/30"}));
    // Classic fair-share has no LevelFS; -m puts Partition after User.
    EXPECT_EQ(
        headers(fields(false, true, true)),
        (std::vector<std::string>{"Account/-20", "User/10", "Partition/12", "RawShares/10",
                                  "NormShares/11", "RawUsage/11", "NormUsage/11", "EffectvUsage/13",
                                  "FairShare/10", "GrpTRESMins/30", "TRESRunMins/30"}));
}

TEST(SshareFields, FormatItemsAbbreviateInSlurmsOrder) {
    EXPECT_EQ(
        headers(parse_share_format({"a", "c", "e", "f", "g", "l", "n", "p", "r", "t", "u"})),
        (std::vector<std::string>{"Account/-20", "Cluster/10", "EffectvUsage/13", "FairShare/10",
                                  "GrpTRESMins/30", "LevelFS/10", "NormShares/11", "Partition/12",
                                  "RawShares/10", "TRESRunMins/30", "User/10"}));
    EXPECT_EQ(headers(parse_share_format({"normu", "rawu%15", "user%-8", "account%0", "%5"})),
              (std::vector<std::string>{"NormUsage/11", "RawUsage/15", "User/-8", "Account/-20",
                                        "Account/5"}));
    EXPECT_EQ(format_error({"user", "foo%10"}), "Invalid field requested: \"foo\"");
    EXPECT_EQ(format_error({"accounts"}), "Invalid field requested: \"accounts\"");
    EXPECT_EQ(format_error({"id"}), "the ID field is not supported by Drover");
    EXPECT_EQ(format_error({"grptresr"}), "the GrpTRESRaw field is not supported by Drover");
}

TEST(SshareFields, HelpFormatListsFourToALine) {
    EXPECT_EQ(share_help_format(),
              "Account           Cluster           EffectvUsage      FairShare        \n"
              "GrpTRESMins       GrpTRESRaw        ID                LevelFS          \n"
              "NormShares        NormUsage         Partition         RawShares        \n"
              "RawUsage          TRESRunMins       User             \n");
}

TEST(SshareFields, DoublesAsPrintFieldsPrintsThem) {
    EXPECT_EQ(share_double(0.5, 11, FieldLayout::fixed), "   0.500000");
    EXPECT_EQ(share_double(0.5, -11, FieldLayout::fixed), "0.500000   ");
    EXPECT_EQ(share_double(0.25, 11, FieldLayout::parsable), "0.250000");
    EXPECT_EQ(share_double(kInf, 10, FieldLayout::fixed), "       inf");
    EXPECT_EQ(share_double(kInf, 10, FieldLayout::parsable2), "inf");
    // Wider than the column: "%e" with the precision its width leaves after the exponent.
    EXPECT_EQ(share_double(123456789.0, 10, FieldLayout::fixed), "1.2346e+08");
    EXPECT_EQ(share_double(1.5e12, 11, FieldLayout::fixed), "1.50000e+12");
    EXPECT_EQ(share_double(1.5e12, -11, FieldLayout::fixed), "1.50000e+12");
    // NO_VAL, INFINITE, NO_VAL64 and NaN are blank.
    EXPECT_EQ(share_double(4294967294.0, 10, FieldLayout::fixed), "          ");
    EXPECT_EQ(share_double(4294967295.0, 10, FieldLayout::parsable), "");
    EXPECT_EQ(share_double(18446744073709551614.0, 6, FieldLayout::fixed), "      ");
    EXPECT_EQ(share_double(std::nan(""), 6, FieldLayout::fixed), "      ");
}

TEST(SshareRender, DefaultFairTree) {
    ShareTable t = tree();
    EXPECT_EQ(render_shares(t, fields(true, false), {}),
              kHeader + kDashes +
                  // root: RawShares blank (Slurm sends NO_VAL for the root), accounts' FairShare
                  // blank under Fair Tree, RawUsage truncated to an integer.
                  "root                                          1.000000        1000      "
                  "1.000000            \n"
                  " root                      root          1    0.500000           0      "
                  "0.000000   1.000000 \n"
                  " physics                                 1    0.500000        1000      "
                  "1.000000            \n"
                  "  physics                 alice          1    1.000000        1000      "
                  "1.000000   0.500000 \n"
                  "  theory                            parent    0.000000           0      "
                  "0.000000            \n"
                  "   theory                   bob          1    1.000000           0      "
                  "0.000000   1.000000 \n");
}

TEST(SshareRender, NoHeader) {
    ShareTable t = tree();
    t.lines.resize(1);
    EXPECT_EQ(render_shares(t, fields(true, false), {FieldLayout::fixed, false, false}),
              "root                                          1.000000        1000      "
              "1.000000            \n");
}

TEST(SshareRender, LongParsable2) {
    ShareTable t = tree();
    EXPECT_EQ(render_shares(t, fields(true, true), {FieldLayout::parsable2, true, false}),
              "Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|"
              "LevelFS|GrpTRESMins|TRESRunMins\n"
              "root|||1.000000|1000|1.000700|1.000000||1.500000||\n"
              " root|root|1|0.500000|0|0.000000|0.000000|1.000000|inf||cpu=0,mem=0\n"
              " physics||1|0.500000|1000|1.000000|1.000000||1.500000||\n"
              "  physics|alice|1|1.000000|1000|1.000000|1.000000|0.500000|1.000000||cpu=0,mem=0\n"
              // FairShare=parent: "parent", and no LevelFS.
              "  theory||parent|0.000000|0|0.000000|0.000000||||\n"
              "   theory|bob|1|1.000000|0|0.000000|0.000000|1.000000|inf||cpu=0,mem=0\n");
}

TEST(SshareRender, ParsableEndsEachLineWithABar) {
    ShareTable t = tree();
    t.lines.resize(2);
    EXPECT_EQ(render_shares(t, fields(true, false), {FieldLayout::parsable, true, false}),
              "Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare|\n"
              "root|||1.000000|1000|1.000000||\n"
              " root|root|1|0.500000|0|0.000000|1.000000|\n");
}

TEST(SshareRender, LongFixedTresColumns) {
    ShareTable t = tree();
    t.lines = {t.lines[3]};
    t.lines[0].grp_tres_mins = "cpu=6000";
    t.lines[0].tres_run_mins = "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0";
    // alice without her account's line: at the left. TRES strings right-justified in 30, cut
    // with '+'.
    EXPECT_EQ(render_shares(t, fields(true, true), {FieldLayout::fixed, false, false}),
              "physics                   alice          1    1.000000        1000    1.000000      "
              "1.000000   0.500000   1.000000                       cpu=6000 "
              "cpu=0,mem=0,energy=0,node=0,b+ \n");
}

TEST(SshareRender, UsersOnlyShowAccountsAtTheLeft) {
    ShareTable t = tree();
    EXPECT_EQ(
        render_shares(t, parse_share_format({"a", "u"}), {FieldLayout::parsable2, false, true}),
        "root|root\nphysics|alice\ntheory|bob\n");
}

TEST(SshareRender, ASubtreeStartsAtTheLeft) {
    // -A physics: the lines from physics down, without root.
    ShareTable t = tree();
    t.lines.erase(t.lines.begin(), t.lines.begin() + 2);
    EXPECT_EQ(
        render_shares(t, parse_share_format({"a", "u"}), {FieldLayout::parsable2, false, false}),
        "physics|\n physics|alice\n theory|\n  theory|bob\n");
}

TEST(SshareRender, ClassicFairShareShowsAccountsFactor) {
    ShareTable t = tree();
    t.fair_tree = false;
    t.lines.resize(3);
    EXPECT_EQ(
        render_shares(t, parse_share_format({"a", "f"}), {FieldLayout::parsable2, false, false}),
        "root|0.750000\n root|1.000000\n physics|0.750000\n");
}

TEST(SshareRender, WithoutAPriorityPluginNormSharesAndNormUsageAreBlank) {
    ShareTable t = tree();
    t.factors = false;
    t.lines.resize(2);
    EXPECT_EQ(render_shares(t, parse_share_format({"a", "u", "norms", "normu", "rawu", "eff"}),
                            {FieldLayout::parsable2, false, false}),
              "root||||1000|1.000000\n root|root|||0|0.000000\n");
}

TEST(SshareRender, StringsAreCutNumbersAreNot) {
    ShareTable t;
    ShareLine l = account("averyveryverylongaccountname", 0, 4045678901u, 0.5, 123456789012.0, 0.5);
    t.lines = {l};
    EXPECT_EQ(render_shares(t, parse_share_format({"a", "rawu", "c%1", "raws%-3"}),
                            {FieldLayout::fixed, true, false}),
              "Account                 RawUsage C Raw \n"
              "-------------------- ----------- - --- \n"
              "averyveryverylongac+ 123456789012 + 4045678901 \n");
}

TEST(SshareRender, EmptyAnswerStillHasTheHeader) {
    EXPECT_EQ(render_shares({}, fields(true, false), {}), kHeader + kDashes);
}
