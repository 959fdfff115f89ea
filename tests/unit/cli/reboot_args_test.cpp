// reboot_args_test.cpp - scontrol reboot's words as Slurm's scontrol reads them, and its refusals.
#include <gtest/gtest.h>

#include "cli/reboot_args.hpp"
#include "cli/scontrol_args.hpp"
#include "fixtures.hpp"

using namespace drover::cli;
using drover::cli::test::error_of;

namespace {

using Words = std::vector<std::string>;

RebootArgs parsed(const Words &w) {
    return parse_reboot(w);
}

} // namespace

TEST(RebootArgs, CommandWords) {
    EXPECT_EQ(match_scontrol_command("reboot"), ScontrolCmd::reboot);
    EXPECT_EQ(match_scontrol_command("reboot_nodes"), ScontrolCmd::reboot);
    EXPECT_EQ(match_scontrol_command("reb"), ScontrolCmd::reboot);
    EXPECT_EQ(match_scontrol_command("cancel_reboot"), ScontrolCmd::cancel_reboot);
    EXPECT_EQ(match_scontrol_command("can"), ScontrolCmd::cancel_reboot);
}

TEST(RebootArgs, OptionsThenNodes) {
    RebootArgs a = parsed({"asap", "nextstate=res", "Reason=new kernel", "n[1-4]"});
    EXPECT_TRUE(a.asap);
    EXPECT_EQ(a.next_state, "RESUME") << "any leading part of RESUME";
    EXPECT_EQ(a.reason, "new kernel");
    EXPECT_EQ(a.nodes, "n[1-4]");
    a = parsed({"ALL"});
    EXPECT_FALSE(a.asap);
    EXPECT_EQ(a.next_state, "");
    EXPECT_EQ(a.nodes, "ALL");
    EXPECT_EQ(parsed({"NextState=d", "n1"}).next_state, "DOWN");
}

TEST(RebootArgs, RefusedAsSlurmRefuses) {
    auto err = [](const Words &w) { return error_of([&] { parsed(w); }); };
    EXPECT_EQ(err({"ASAP"}), "Missing node list. Specify ALL|<NodeList>");
    EXPECT_EQ(err({"n1", "n2"}), "too many arguments for keyword:reboot");
    EXPECT_EQ(err({"nextstate=UP", "n1"}), "Invalid state: UP\nValid states: DOWN, RESUME");
    EXPECT_EQ(err({"nextstate=", "n1"}), "missing state");
    EXPECT_EQ(err({"reason=", "n1"}), "missing reason");
}
