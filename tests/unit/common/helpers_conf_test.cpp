// helpers_conf_test.cpp - helpers.conf as helpers.conf(5) gives it: Feature/Helper lines with and
// without NodeName, MutuallyExclusive, the settings, and the refusals of what is not.
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "common/helpers_conf.hpp"

namespace drover {
namespace {

std::string refusal(const std::string &text) {
    try {
        (void)parse_helpers_conf(text, "helpers.conf");
    } catch (const ParseError &e) {
        return e.what();
    }
    return "accepted";
}

TEST(HelpersConf, FeatureLinesSettingsAndMutuallyExclusive) {
    HelpersConf h = parse_helpers_conf("# comment\n"
                                       "NodeName=cloud[1-5] Feature=f1,f2 Helper=/bin/true\n"
                                       "feature=mig=on Helper=/usr/local/bin/mig flags=rebootless\n"
                                       "MutuallyExclusive=f1,f2\n"
                                       "ExecTime=60 BootTime=90\n"
                                       "AllowUserBoot=alice,bob\n",
                                       "helpers.conf");
    ASSERT_EQ(h.lines.size(), 2u);
    EXPECT_EQ(h.lines[0].nodes, "cloud[1-5]");
    EXPECT_EQ(h.lines[0].helper, "/bin/true");
    EXPECT_EQ(h.lines[1].nodes, "") << "a line without NodeName is for every node";
    EXPECT_EQ(h.lines[1].features, std::vector<std::string>{"mig=on"});
    EXPECT_EQ(h.exec_time, 60u);
    EXPECT_EQ(h.boot_time, 90u);
    EXPECT_EQ(h.allow_user_boot, (std::vector<std::string>{"alice", "bob"}));
    // Changeable: what helpers.conf names, in slurm.conf's order; labels are not.
    EXPECT_EQ(h.changeable({"l1", "f2", "mig=on", "f1"}),
              (std::vector<std::string>{"f2", "mig=on", "f1"}));
    EXPECT_EQ(h.conflict({"f2", "l1", "f1"}), "f2,f1");
    EXPECT_EQ(h.conflict({"f1", "mig=on", "f1"}), "")
        << "one of a list, named twice, is no conflict";
}

TEST(HelpersConf, Defaults) {
    HelpersConf h = parse_helpers_conf("AllowUserBoot=ALL\n", "helpers.conf");
    EXPECT_TRUE(h.allow_user_boot.empty());
    EXPECT_EQ(h.boot_time, 300u);
    EXPECT_EQ(h.exec_time, 10u);
    EXPECT_TRUE(h.changeable({"f1"}).empty());
}

TEST(HelpersConf, RefusesWhatIsNotHelpersConf) {
    EXPECT_EQ(refusal("Feature=f1\n"), "helpers.conf:1: Feature= needs Helper=<program>");
    EXPECT_EQ(refusal("\nHelper=/bin/true\n"),
              "helpers.conf:2: a Helper line needs Feature=<features>");
    EXPECT_EQ(refusal("NodeName=n[1- Feature=f Helper=/x\n")
                  .rfind("helpers.conf:1: bad value for NodeName", 0),
              0u);
    EXPECT_EQ(refusal("Bogus=1\n"), "helpers.conf:1: unknown key 'Bogus'");
    EXPECT_EQ(refusal("Feature=f Helper=/x Color=red\n"),
              "helpers.conf:1: unknown key 'Color' on a Feature line");
    EXPECT_NE(refusal("BootTime=soon\n"), "accepted");
    EXPECT_NE(refusal("MutuallyExclusive=f1\n"), "accepted");
}

} // namespace
} // namespace drover
