// sacctmgr_test.cpp - sacctmgr's command words, keys and abbreviations, format= fields and the
// show layouts.
#include <gtest/gtest.h>

#include "cli/options.hpp"
#include "cli/sacctmgr_args.hpp"
#include "cli/sacctmgr_fields.hpp"
#include "common/error.hpp"

using namespace drover;
using namespace drover::cli;

namespace {

SacctmgrArgs parse(std::vector<std::string> v) {
    return parse_sacctmgr_args(v);
}

using KV = std::vector<std::pair<std::string, std::string>>;

std::string error_of(std::vector<std::string> v) {
    try {
        parse(std::move(v));
    } catch (const ParseError &e) {
        return e.what();
    }
    return "(none)";
}

} // namespace

TEST(Sacctmgr, VerbsEntitiesAndKeys) {
    SacctmgrArgs a = parse({"-i", "add", "user", "alice,bob", "Account=physics",
                            "DefaultAccount=physics", "AdminLevel=Operator", "Cluster=local"});
    EXPECT_TRUE(a.immediate);
    EXPECT_EQ(a.verb, "add");
    EXPECT_EQ(a.entity, "user");
    EXPECT_EQ(a.set, (KV{{"name", "alice,bob"},
                         {"account", "physics"},
                         {"defaultaccount", "physics"},
                         {"adminlevel", "Operator"},
                         {"cluster", "local"}}));
    a = parse(
        {"modify", "user", "where", "name=alice", "set", "defaultaccount=chem", "admin=None"});
    EXPECT_EQ(a.verb, "modify");
    EXPECT_EQ(a.where, (KV{{"name", "alice"}}));
    EXPECT_EQ(a.set, (KV{{"defaultaccount", "chem"}, {"adminlevel", "None"}}));
    a = parse({"update", "account", "physics", "set", "Descr=Physics", "Org=sci", "parent=root"});
    EXPECT_EQ(a.verb, "modify");
    EXPECT_EQ(a.where, (KV{{"name", "physics"}}));
    EXPECT_EQ(a.set, (KV{{"description", "Physics"}, {"organization", "sci"}, {"parent", "root"}}));
    a = parse({"-n", "-P", "list", "assoc", "where", "users=alice", "Accounts=physics",
               "format=User,Account%20"});
    EXPECT_EQ(a.verb, "show");
    EXPECT_EQ(a.entity, "association");
    EXPECT_TRUE(a.noheader && a.parsable2);
    EXPECT_EQ(a.where, (KV{{"user", "alice"}, {"account", "physics"}}));
    EXPECT_EQ(a.format, (std::vector<std::string>{"User", "Account%20"}));
    EXPECT_EQ(parse({"remove", "cluster", "local"}).verb, "delete");
    EXPECT_EQ(parse({"create", "acct", "x"}).entity, "account");
    EXPECT_EQ(parse({"show", "associations"}).entity, "association");
}

TEST(Sacctmgr, BadCommands) {
    EXPECT_EQ(error_of({"frobnicate", "user"}), "Invalid command: frobnicate");
    EXPECT_EQ(
        error_of({"show", "qos"}),
        "Not supported by Drover: show qos (cluster, account, user, association and event are)");
    EXPECT_EQ(error_of({"add", "user", "alice", "Colour=red"}), " Unknown option: Colour=red");
    EXPECT_EQ(error_of({"delete", "user", "alice", "set", "adminlevel=none"}),
              " Unknown option: set (only modify sets values)");
    EXPECT_THROW(parse({"--bogus"}), UsageError);
}

TEST(Sacctmgr, FormatFieldsLikeSlurm) {
    auto f = parse_sacctmgr_format(
        {"user", "DefaultAccount", "admin", "acct%-15", "Cluster", "ParentName", "Descr"});
    ASSERT_EQ(f.size(), 7u);
    EXPECT_EQ(f[0].header, "User");
    EXPECT_EQ(f[1].header, "Def Acct");
    EXPECT_EQ(f[2].header, "Admin");
    EXPECT_EQ(f[2].width, 9);
    EXPECT_EQ(f[3].header, "Account");
    EXPECT_EQ(f[3].width, -15);
    EXPECT_EQ(f[6].header, "Descr");
    EXPECT_EQ(f[6].width, 20);
    try {
        parse_sacctmgr_format({"User", "Colour"});
        FAIL();
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "Unknown field 'Colour'");
    }
    EXPECT_EQ(parse_sacctmgr_format(sacctmgr_default_format("association")).size(), 20u);
}

TEST(Sacctmgr, ShowLayouts) {
    auto f = parse_sacctmgr_format(sacctmgr_default_format("user"));
    std::vector<SacctmgrRow> rows = {
        {{"user", "alice"}, {"defaultaccount", "physics"}, {"adminlevel", "None"}},
        {{"user", "root"}, {"defaultaccount", "root"}, {"adminlevel", "Administrator"}}};
    EXPECT_EQ(render_sacctmgr(f, rows, FieldLayout::fixed, true),
              "      User   Def Acct     Admin \n"
              "---------- ---------- --------- \n"
              "     alice    physics      None \n"
              "      root       root Administ+ \n");
    EXPECT_EQ(render_sacctmgr(f, rows, FieldLayout::parsable2, false),
              "alice|physics|None\nroot|root|Administrator\n");
    EXPECT_EQ(render_sacctmgr(f, rows, FieldLayout::parsable, true),
              "User|Def Acct|Admin|\nalice|physics|None|\nroot|root|Administrator|\n");
    // Fields with no data print blank.
    auto g = parse_sacctmgr_format({"User", "MaxJobs"});
    EXPECT_EQ(render_sacctmgr(g, {rows[0]}, FieldLayout::parsable2, false), "alice|\n");
}
