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

// The canonical key and value a word sets on ENTITY (modify ENTITY where name=x set WORD).
std::pair<std::string, std::string> set_of(const std::string &entity, const std::string &word) {
    auto set = parse({"modify", entity, "where", "name=x", "set", word}).set;
    return set.empty() ? std::pair<std::string, std::string>{} : set.back();
}

// The key a word resolves to, on an account (where no QOS meaning applies).
std::string key_of(const std::string &word) {
    return set_of("account", word + "=1").first;
}

std::vector<std::string> headers(const std::vector<SacctmgrField> &f) {
    std::vector<std::string> out;
    for (const auto &x : f) out.push_back(x.header);
    return out;
}

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
    EXPECT_EQ(error_of({"show", "wckey"}),
              "Not supported by Drover: show wckey (cluster, "
              "account, user, association, qos, event and federation are)");
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

TEST(Sacctmgr, ExistingKeysKeepTheirAbbreviations) {
    // What these meant before the QOS and limit keys came, they still mean.
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"acc", "account"},
        {"accounts", "account"},
        {"acct", "account"},
        {"ad", "adminlevel"},
        {"admin", "adminlevel"},
        {"cl", "cluster"},
        {"clusters", "cluster"},
        {"def", "defaultaccount"},
        {"default", "defaultaccount"},
        {"defaulta", "defaultaccount"},
        {"des", "description"},
        {"description", "description"},
        {"descriptions", "description"},
        {"n", "name"},
        {"name", "name"},
        {"names", "name"},
        {"o", "organization"},
        {"org", "organization"},
        {"organizations", "organization"},
        {"par", "parent"},
        {"parent", "parent"},
        {"parentn", "parent"},
        {"parentname", "parent"},
        {"part", "partition"},
        {"partitions", "partition"},
        {"u", "user"},
        {"us", "user"},
        {"users", "user"},
    };
    for (const auto &[word, key] : cases) EXPECT_EQ(key_of(word), key) << word;
}

TEST(Sacctmgr, QosAndLimitKeys) {
    // Slurm's spellings and its shortest abbreviations (sacctmgr_set_assoc_rec, qos _set_rec).
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"DefaultQOS", "defaultqos"},
        {"defaultq", "defaultqos"},
        {"Fairshare", "fairshare"},
        {"f", "fairshare"},
        {"fa", "fairshare"},
        {"Shares", "fairshare"},
        {"s", "fairshare"},
        {"share", "fairshare"},
        {"Flags", "flags"},
        {"fl", "flags"},
        {"GraceTime", "gracetime"},
        {"gra", "gracetime"},
        {"GrpJobs", "grpjobs"},
        {"grpj", "grpjobs"},
        {"GrpSubmitJobs", "grpsubmitjobs"},
        {"GrpSubmit", "grpsubmitjobs"},
        {"grps", "grpsubmitjobs"},
        {"GrpTRES", "grptres"},
        {"GrpTRESMins", "grptresmins"},
        {"grptresm", "grptresmins"},
        {"GrpTRESRunMins", "grptresrunmins"},
        {"grptresr", "grptresrunmins"},
        {"GrpWall", "grpwall"},
        {"grpw", "grpwall"},
        {"MaxJobs", "maxjobs"},
        {"maxj", "maxjobs"},
        {"MaxJobsPerUser", "maxjobsperuser"},
        {"MaxJobsPU", "maxjobsperuser"},
        {"maxjobsp", "maxjobsperuser"},
        {"MaxJobsPerAccount", "maxjobsperaccount"},
        {"maxjobspera", "maxjobsperaccount"},
        {"MaxJobsPA", "maxjobsperaccount"},
        {"MaxSubmitJobs", "maxsubmitjobs"},
        {"MaxSubmit", "maxsubmitjobs"},
        {"maxs", "maxsubmitjobs"},
        {"MaxSubmitJobsPerUser", "maxsubmitjobsperuser"},
        {"MaxSubmitJobsPU", "maxsubmitjobsperuser"},
        {"MaxSubmitPU", "maxsubmitjobsperuser"},
        {"MaxSubmitJobsPerAccount", "maxsubmitjobsperaccount"},
        {"MaxSubmitJobsPA", "maxsubmitjobsperaccount"},
        {"MaxSubmitPA", "maxsubmitjobsperaccount"},
        {"MaxTRES", "maxtres"},
        {"MaxTRESPerJob", "maxtres"},
        {"maxtresp", "maxtres"}, // as in Slurm: MaxTRESPerJob takes 7 letters
        {"maxtresper", "maxtres"},
        {"MaxTRESPerNode", "maxtrespernode"},
        {"maxtrespern", "maxtrespernode"},
        {"MaxTRESMins", "maxtresmins"},
        {"MaxTRESMinsPerJob", "maxtresmins"},
        {"maxtresm", "maxtresmins"},
        {"MaxTRESPerUser", "maxtresperuser"},
        {"MaxTRESPU", "maxtresperuser"},
        {"MaxTRESPerAccount", "maxtresperaccount"},
        {"MaxTRESPA", "maxtresperaccount"},
        {"MaxWall", "maxwall"},
        {"MaxWallDurationPerJob", "maxwall"},
        {"maxw", "maxwall"},
        {"MinTRES", "mintres"},
        {"MinTRESPerJob", "mintres"},
        {"Preempt", "preempt"},
        {"PreemptMode", "preemptmode"},
        {"preemptm", "preemptmode"},
        {"PreemptExemptTime", "preemptexempttime"},
        {"preempte", "preemptexempttime"},
        {"Priority", "priority"},
        {"pri", "priority"},
        {"QOS", "qos"},
        {"QOSLevel", "qos"},
        {"q", "qos"},
        {"UsageFactor", "usagefactor"},
        {"usagef", "usagefactor"},
        {"UsageThreshold", "usagethreshold"},
        {"usaget", "usagethreshold"},
    };
    for (const auto &[word, key] : cases) EXPECT_EQ(key_of(word), key) << word;
    // Shorter than Slurm takes, or no key's abbreviation.
    for (std::string word : {"g", "grp", "grpt", "m", "max", "maxtres2", "maxsubmitp",
                             "maxsubmitpu2", "pa", "pr", "pre", "usage", "d", "a", "c"})
        EXPECT_EQ(error_of({"add", "account", "x", word + "=1"}), " Unknown option: " + word + "=1")
            << word;
}

TEST(Sacctmgr, AddToAndTakeFromLists) {
    SacctmgrArgs a = parse({"modify", "user", "alice", "set", "QOS+=high", "DefaultQOS=high"});
    EXPECT_EQ(a.where, (KV{{"name", "alice"}}));
    EXPECT_EQ(a.set, (KV{{"qos", "+high"}, {"defaultqos", "high"}}));
    a = parse({"modify", "account", "physics", "set", "qos-=low,normal", "QOS=+high"});
    EXPECT_EQ(a.set, (KV{{"qos", "-low,normal"}, {"qos", "+high"}}));
    a = parse({"modify", "qos", "high", "set", "Flags-=DenyOnLimit", "Preempt+=low",
               "Flags+=NoReserve,OverPartQOS", "Preempt=low"});
    EXPECT_EQ(a.where, (KV{{"name", "high"}}));
    EXPECT_EQ(a.set, (KV{{"flags", "-DenyOnLimit"},
                         {"preempt", "+low"},
                         {"flags", "+NoReserve,OverPartQOS"},
                         {"preempt", "low"}}));
    // Slurm ignores + and - on a key that is no list.
    a = parse({"modify", "account", "physics", "set", "MaxJobs+=5", "GrpTRES-=cpu=10"});
    EXPECT_EQ(a.set, (KV{{"maxjobs", "5"}, {"grptres", "cpu=10"}}));
    // The first '=' ends the key: a later "-=" is part of the value.
    a = parse({"modify", "account", "physics", "set", "Description=a-=b"});
    EXPECT_EQ(a.set, (KV{{"description", "a-=b"}}));
    EXPECT_EQ(error_of({"add", "account", "x", "Colour+=red"}), " Unknown option: Colour+=red");
    EXPECT_EQ(error_of({"add", "account", "x", "+=red"}), " Unknown option: +=red");
}

TEST(Sacctmgr, QosEntity) {
    for (std::string w : {"qos", "QOS", "q", "Qo"}) {
        EXPECT_EQ(parse({"show", w}).entity, "qos") << w;
        EXPECT_EQ(parse({"add", w, "x"}).entity, "qos") << w;
        EXPECT_EQ(parse({"modify", w, "x", "set", "Priority=1"}).entity, "qos") << w;
    }
    EXPECT_EQ(parse({"delete", "qo", "x"}).entity, "qos");
    EXPECT_EQ(parse({"remove", "qos", "x"}).entity, "qos");
    EXPECT_EQ(error_of({"delete", "q", "x"}), "No valid entity in delete command");
    EXPECT_EQ(error_of({"show", "qosx"}), "Not supported by Drover: show qosx (cluster, account, "
                                          "user, association, qos, event and federation are)");

    SacctmgrArgs a =
        parse({"-i", "add", "qos", "high,low", "Priority=100", "GraceTime=300", "Flags=DenyOnLimit",
               "MaxTRESPU=cpu=64", "MaxWall=1-00:00:00", "UsageFactor=2", "Descr=High"});
    EXPECT_EQ(a.verb, "add");
    EXPECT_EQ(a.entity, "qos");
    EXPECT_EQ(a.set, (KV{{"name", "high,low"},
                         {"priority", "100"},
                         {"gracetime", "300"},
                         {"flags", "DenyOnLimit"},
                         {"maxtresperuser", "cpu=64"},
                         {"maxwall", "1-00:00:00"},
                         {"usagefactor", "2"},
                         {"description", "High"}}));
    // On a QOS, MaxJobs and MaxSubmitJobs are the per-user limits, as in Slurm.
    a = parse({"modify", "qos", "where", "name=normal", "set", "MaxJobs=5", "MaxSubmit=10",
               "MaxJobsPA=2", "MaxSubmitJobsPA=3"});
    EXPECT_EQ(a.where, (KV{{"name", "normal"}}));
    EXPECT_EQ(a.set, (KV{{"maxjobsperuser", "5"},
                         {"maxsubmitjobsperuser", "10"},
                         {"maxjobsperaccount", "2"},
                         {"maxsubmitjobsperaccount", "3"}}));
    EXPECT_EQ(set_of("user", "MaxJobs=5"), (std::pair<std::string, std::string>{"maxjobs", "5"}));
    // Where, QOS= names the QOS.
    a = parse({"show", "qos", "where", "QOS=normal,high", "format=Name,Priority"});
    EXPECT_EQ(a.where, (KV{{"name", "normal,high"}}));
    EXPECT_EQ(a.format, (std::vector<std::string>{"Name", "Priority"}));
    a = parse({"delete", "qos", "high"});
    EXPECT_EQ(a.verb, "delete");
    EXPECT_EQ(a.where, (KV{{"name", "high"}}));
}

TEST(Sacctmgr, LimitAndQosFields) {
    struct Case {
        std::string item, header;
        int width;
        std::string key;
    };
    const std::vector<Case> cases = {
        {"Name", "Name", 10, "name"},
        {"na", "Name", 10, "name"},
        {"NodeNames", "NodeName", -15, "nodename"},
        {"noden", "NodeName", -15, "nodename"},
        {"DefaultQOS", "Def QOS", 9, "defaultqos"},
        {"Flags", "Flags", 20, "flags"},
        {"fl", "Flags", 20, "flags"},
        {"GraceTime", "GraceTime", 10, "gracetime"},
        {"GrpJobs", "GrpJobs", 7, "grpjobs"},
        {"GrpSubmitJobs", "GrpSubmit", 9, "grpsubmitjobs"},
        {"GrpTRES", "GrpTRES", 13, "grptres"},
        {"GrpTRESMins", "GrpTRESMins", 13, "grptresmins"},
        {"GrpTRESRunMins", "GrpTRESRunMins", 13, "grptresrunmins"},
        {"GrpWall", "GrpWall", 11, "grpwall"},
        {"MaxJobs", "MaxJobs", 7, "maxjobs"},
        {"MaxSubmitJobs", "MaxSubmit", 9, "maxsubmitjobs"},
        {"maxsub", "MaxSubmit", 9, "maxsubmitjobs"},
        {"MaxTRES", "MaxTRES", 13, "maxtres"},
        {"MaxTRESPerJob", "MaxTRES", 13, "maxtres"},
        {"MaxTRESMinsPerJob", "MaxTRESMins", 13, "maxtresmins"},
        {"MaxTRESPerNode", "MaxTRESPerNode", 14, "maxtrespernode"},
        {"MaxWallDurationPerJob", "MaxWall", 11, "maxwall"},
        {"Priority", "Priority", 10, "priority"},
        {"QOS", "QOS", 20, "qos"},
        {"Share", "Share", 9, "fairshare"},
        {"fa", "Share", 9, "fairshare"},
        {"FairShare", "Share", 9, "fairshare"},
        {"Preempt", "Preempt", 10, "preempt"},
        {"PreemptExemptTime", "PreemptExemptTime", 19, "preemptexempttime"},
        {"PreemptMode", "PreemptMode", 11, "preemptmode"},
        {"UsageThreshold", "UsageThres", 10, "usagethreshold"},
        {"UsageFactor", "UsageFactor", 11, "usagefactor"},
        {"MaxTRESPU", "MaxTRESPU", 13, "maxtresperuser"},
        {"MaxTRESPerUser", "MaxTRESPU", 13, "maxtresperuser"},
        {"MaxJobsPU", "MaxJobsPU", 9, "maxjobsperuser"},
        {"MaxJobsPerUser", "MaxJobsPU", 9, "maxjobsperuser"},
        {"MaxSubmitPU", "MaxSubmitPU", 11, "maxsubmitjobsperuser"},
        {"MaxSubmitJobsPerUser", "MaxSubmitPU", 11, "maxsubmitjobsperuser"},
        {"MaxTRESPA", "MaxTRESPA", 13, "maxtresperaccount"},
        {"MaxTRESPerAcct", "MaxTRESPA", 13, "maxtresperaccount"},
        {"MaxJobsPA", "MaxJobsPA", 9, "maxjobsperaccount"},
        {"MaxJobsPerAccount", "MaxJobsPA", 9, "maxjobsperaccount"},
        {"MaxSubmitPA", "MaxSubmitPA", 11, "maxsubmitjobsperaccount"},
        {"MaxSubmitJobsPerAcct", "MaxSubmitPA", 11, "maxsubmitjobsperaccount"},
        {"MinTRES", "MinTRES", 13, "mintres"},
        {"Description", "Descr", 20, "description"},
        {"us", "User", 10, "user"},
    };
    for (const auto &c : cases) {
        auto f = parse_sacctmgr_format({c.item});
        ASSERT_EQ(f.size(), 1u) << c.item;
        EXPECT_EQ(f[0].header, c.header) << c.item;
        EXPECT_EQ(f[0].width, c.width) << c.item;
        EXPECT_EQ(f[0].key, c.key) << c.item;
    }
    for (std::string item : {"N", "No", "F", "Pre", "PreemptX", "Usage", "MaxTRESP"}) {
        try {
            parse_sacctmgr_format({item});
            ADD_FAILURE() << item;
        } catch (const ParseError &e) {
            EXPECT_EQ(std::string(e.what()), "Unknown field '" + item + "'");
        }
    }
    // A QOS's MaxJobs and MaxSubmit columns are its per-user limits; an association's MaxJobsPU
    // and MaxSubmitPU its own MaxJobs and MaxSubmitJobs (Slurm prints one limit for each pair).
    auto f =
        parse_sacctmgr_format({"MaxJobs", "MaxSubmit", "MaxJobsPU", "MaxSubmitPU", "MaxJobsPA"});
    auto q = f;
    sacctmgr_entity_keys("qos", q);
    EXPECT_EQ(q[0].key, "maxjobsperuser");
    EXPECT_EQ(q[1].key, "maxsubmitjobsperuser");
    EXPECT_EQ(q[2].key, "maxjobsperuser");
    EXPECT_EQ(q[3].key, "maxsubmitjobsperuser");
    EXPECT_EQ(q[4].key, "maxjobsperaccount");
    EXPECT_EQ(headers(q), headers(f));
    sacctmgr_entity_keys("association", f);
    EXPECT_EQ(f[0].key, "maxjobs");
    EXPECT_EQ(f[1].key, "maxsubmitjobs");
    EXPECT_EQ(f[2].key, "maxjobs");
    EXPECT_EQ(f[3].key, "maxsubmitjobs");
    EXPECT_EQ(f[4].key, "maxjobsperaccount");
}

TEST(Sacctmgr, QosDefaultFormat) {
    auto f = parse_sacctmgr_format(sacctmgr_default_format("qos"));
    EXPECT_EQ(
        headers(f),
        (std::vector<std::string>{
            "Name",        "Priority",       "GraceTime",   "Preempt",     "PreemptExemptTime",
            "PreemptMode", "Flags",          "UsageThres",  "UsageFactor", "GrpTRES",
            "GrpTRESMins", "GrpTRESRunMins", "GrpJobs",     "GrpSubmit",   "GrpWall",
            "MaxTRES",     "MaxTRESPerNode", "MaxTRESMins", "MaxWall",     "MaxTRESPU",
            "MaxJobsPU",   "MaxSubmitPU",    "MaxTRESPA",   "MaxJobsPA",   "MaxSubmitPA",
            "MinTRES"}));
    ASSERT_EQ(f.size(), 26u);
    EXPECT_EQ(f[6].width, 40); // Flags%40
    sacctmgr_entity_keys("qos", f);
    std::vector<SacctmgrRow> rows = {{{"name", "normal"},
                                      {"priority", "0"},
                                      {"gracetime", "00:00:00"},
                                      {"preemptmode", "cluster"},
                                      {"flags", "DenyOnLimit"},
                                      {"usagefactor", "1.000000"},
                                      {"grpjobs", "50"},
                                      {"maxwall", "1-00:00:00"},
                                      {"maxtresperuser", "cpu=64,gres/gpu=4"},
                                      {"maxjobsperuser", "10"},
                                      {"maxsubmitjobsperuser", "20"},
                                      {"mintres", "cpu=1"}}};
    EXPECT_EQ(render_sacctmgr(f, rows, FieldLayout::parsable2, true),
              "Name|Priority|GraceTime|Preempt|PreemptExemptTime|PreemptMode|Flags|UsageThres|"
              "UsageFactor|GrpTRES|GrpTRESMins|GrpTRESRunMins|GrpJobs|GrpSubmit|GrpWall|MaxTRES|"
              "MaxTRESPerNode|MaxTRESMins|MaxWall|MaxTRESPU|MaxJobsPU|MaxSubmitPU|MaxTRESPA|"
              "MaxJobsPA|MaxSubmitPA|MinTRES\n"
              "normal|0|00:00:00|||cluster|DenyOnLimit||1.000000||||50||||||1-00:00:00|"
              "cpu=64,gres/gpu=4|10|20||||cpu=1\n");

    // The fixed layout, with the first columns of the default.
    std::vector<SacctmgrField> g(f.begin(), f.begin() + 9);
    rows.push_back({{"name", "high"},
                    {"priority", "100"},
                    {"gracetime", "00:05:00"},
                    {"preempt", "low,normal"},
                    {"preemptexempttime", "00:10:00"},
                    {"preemptmode", "requeue"},
                    {"flags", "DenyOnLimit,NoReserve"},
                    {"usagethreshold", "0.500000"},
                    {"usagefactor", "2.000000"}});
    EXPECT_EQ(render_sacctmgr(g, rows, FieldLayout::fixed, true),
              "      Name   Priority  GraceTime    Preempt   PreemptExemptTime PreemptMode "
              "                                   Flags UsageThres UsageFactor \n"
              "---------- ---------- ---------- ---------- ------------------- ----------- "
              "---------------------------------------- ---------- ----------- \n"
              "    normal          0   00:00:00                                    cluster "
              "                             DenyOnLimit               1.000000 \n"
              "      high        100   00:05:00 low,normal            00:10:00     requeue "
              "                   DenyOnLimit,NoReserve   0.500000    2.000000 \n");
}
