// part_args_test.cpp - scontrol's partition commands in the commands: which entity a create,
// update or delete line names, the words of create/update as the pairs sent (keys as slurm.conf
// spells them), Slurm's refusals of the words, and show partition's settings scontrol can change.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

#include "cli/json_records.hpp"
#include "cli/part_args.hpp"
#include "cli/scontrol_args.hpp"
#include "cli/scontrol_show.hpp"
#include "common/error.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;
using drover::cli::test::error_of;
using drover::cli::test::Part;
using drover::cli::test::Records;

namespace {

using Words = std::vector<std::string>;

} // namespace

TEST(PartArgs, EntityOfEachCommand) {
    EXPECT_EQ(update_target(Words{"PartitionName=debug", "State=DOWN"}), UpdateWhat::partition);
    EXPECT_EQ(update_target(Words{"MaxTime=5", "par=debug"}), UpdateWhat::partition);
    EXPECT_EQ(update_target(Words{"pa=debug"}), UpdateWhat::unknown) << "three letters at least";
    // A job's or a reservation's update may name a partition.
    EXPECT_EQ(update_target(Words{"PartitionName=debug", "JobId=4"}), UpdateWhat::job);
    EXPECT_EQ(update_target(Words{"PartitionName=debug", "ReservationName=r"}),
              UpdateWhat::reservation);
    EXPECT_EQ(create_target(Words{"partition", "PartitionName=x"}), CreateWhat::partition);
    EXPECT_EQ(create_target(Words{"PartitionName=x", "Nodes=n1"}), CreateWhat::partition);
    EXPECT_EQ(create_target(Words{"res", "PartitionName=x"}), CreateWhat::reservation);
    EXPECT_EQ(create_target(Words{"NodeName=n9"}), CreateWhat::node);
    EXPECT_EQ(create_target(Words{"Nodes=n1"}), CreateWhat::unknown);
    EXPECT_EQ(delete_target(Words{"PartitionName=debug"}, "PartitionName"), "debug");
    EXPECT_EQ(delete_target(Words{"partition", "debug"}, "PartitionName"), "debug");
    EXPECT_EQ(delete_target(Words{"ReservationName=r"}, "PartitionName"), std::nullopt);
    EXPECT_EQ(error_of([] { delete_target(Words{"partition"}, "PartitionName"); }),
              "Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'");
}

TEST(PartArgs, FieldsAsSent) {
    PartFields want = {{"PartitionName", "debug"},
                       {"MaxTime", "30"},
                       {"State", "down"},
                       {"OverSubscribe", "YES:2"},
                       {"Nodes", ""}};
    EXPECT_EQ(parse_part_update(
                  Words{"PartitionName=debug", "MaxT=30", "st=down", "Shared=YES:2", "Nodes="}),
              want);
    EXPECT_EQ(parse_part_create(Words{"partition", "PartitionName=new", "Nodes=n1"}),
              (PartFields{{"PartitionName", "new"}, {"Nodes", "n1"}}));
    EXPECT_EQ(parse_part_create(Words{"PartitionName=new"}),
              (PartFields{{"PartitionName", "new"}}));
}

TEST(PartArgs, RefusedInSlurmsWords) {
    EXPECT_EQ(error_of([] {
                  parse_part_update(Words{"PartitionName=debug", "Hidden=YES"});
              }),
              "Update of this parameter is not supported: Hidden=YES\nRequest aborted");
    EXPECT_EQ(error_of([] {
                  parse_part_update(Words{"PartitionName=debug", "Color=red"});
              }),
              "Update of this parameter is not supported: Color=red\nRequest aborted");
    EXPECT_EQ(error_of([] {
                  parse_part_update(Words{"PartitionName=debug", "State"});
              }),
              "Invalid input: State  Request aborted");
    EXPECT_EQ(error_of([] { parse_part_update(Words{"PartitionName=debug"}); }),
              "No changes specified");
    EXPECT_EQ(error_of([] { parse_part_update(Words{"Par=debug"}); }), "No changes specified");
    EXPECT_EQ(error_of([] {
                  parse_part_create(Words{"partition", "Nodes=n1"});
              }),
              "PartitionName must be given.");
    EXPECT_EQ(error_of([] { parse_part_create(Words{"PartitionName=Default"}); }),
              "PartitionName cannot be \"DEFAULT\".");
}

TEST(PartArgs, ShowPartitionSettings) {
    Part p;
    p.name = "gpu";
    p.nodes = "g[1-2]";
    p.allow_accounts = "physics,chem";
    p.priority_job_factor = 7;
    p.preempt_mode = "REQUEUE";
    p.state = "DRAIN";
    Records rec;
    std::string s = show_partition(*rec.parts({p})[0], false);
    EXPECT_NE(s.find("   AllowGroups=ALL AllowAccounts=physics,chem AllowQos=ALL\n"),
              std::string::npos)
        << s;
    EXPECT_NE(s.find("   PriorityJobFactor=7 PriorityTier=1 "), std::string::npos) << s;
    EXPECT_NE(s.find("   OverTimeLimit=NONE PreemptMode=REQUEUE\n"), std::string::npos) << s;
    EXPECT_NE(s.find("   State=DRAIN "), std::string::npos) << s;
}

// The partition's own power saving times, GLOBAL where it has none, as Slurm's last line.
TEST(PartArgs, ShowPartitionPowerSaving) {
    Part p;
    p.name = "cloud";
    p.suspend_time = 600;
    p.resume_timeout = 900;
    p.power_down_on_idle = true;
    Part never;
    never.name = "never";
    never.suspend_time = -1;
    never.suspend_timeout = 0;
    Records rec;
    auto parts = rec.parts({p, never});
    std::string s = show_partition(*parts[0], false);
    EXPECT_TRUE(s.ends_with("\n   ResumeTimeout=900 SuspendTimeout=GLOBAL SuspendTime=600 "
                            "PowerDownOnIdle=YES\n\n"))
        << s;
    EXPECT_TRUE(show_partition(*parts[1], true)
                    .ends_with(" ResumeTimeout=GLOBAL SuspendTimeout=0 SuspendTime=INFINITE "
                               "PowerDownOnIdle=NO\n"));
    // --json: Slurm's "timeouts" and "suspend_time", not set where GLOBAL.
    std::string json = partitions_json({parts[0], parts[1]}, 0);
    auto squash = [](std::string t) {
        std::erase_if(t, [](char c) { return c == ' ' || c == '\n'; });
        return t;
    };
    json = squash(json);
    EXPECT_NE(json.find(squash(R"("timeouts": {"resume": {"set": true, "infinite": false,
        "number": 900}, "suspend": {"set": false, "infinite": false, "number": 0}},
        "suspend_time": {"set": true, "infinite": false, "number": 600})")),
              std::string::npos)
        << json;
    EXPECT_NE(json.find(squash(R"("suspend": {"set": true, "infinite": false, "number": 0}},
        "suspend_time": {"set": true, "infinite": true, "number": 0})")),
              std::string::npos)
        << json;
}
