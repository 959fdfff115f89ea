// resv_components_test.cpp - advance reservations in the controller's parts: what a reservation
// keeps other jobs off, where and when the jobs in it run, what Slurm refuses at creation and
// deletion, and the record that brings it back after a restart. What is checked is what squeue
// and scontrol would show (job state, reason, nodes).
#include "components_fixture.hpp"

#include <chrono>
#include <thread>

#include "common/error.hpp"

namespace drover::ctld {
namespace {

// scontrol create reservation's keys, read as the controller reads them.
ResvSpec spec(std::vector<std::pair<std::string, std::string>> fields) {
    return parse_resv_spec(fields, Ctx::now());
}

std::string create(Cluster &c, std::vector<std::pair<std::string, std::string>> fields) {
    std::string name;
    Status s = c.resv.create(spec(std::move(fields)), &name);
    return s.ok() ? name : "refused: " + s.text();
}

TEST(CtldReservations, KeepOtherJobsOffTheirNodes) {
    Cluster c;
    EXPECT_EQ(
        create(c, {{"StartTime", "now"}, {"Duration", "60"}, {"Nodes", "n1"}, {"Users", "root"}}),
        "root_1");
    Job &a = c.submit(), &b = c.submit();
    c.sched.pass();
    EXPECT_EQ(a.state, uint32_t(DROVER_JOB_RUNNING));
    EXPECT_EQ(c.nodes.names(a.nodes), "n2");
    EXPECT_EQ(b.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(b.reason, "Resources");
}

TEST(CtldReservations, JobsInOneRunOnlyOnItsNodesAndOnlyOnceItBegins) {
    Cluster c;
    ASSERT_EQ(create(c, {{"ReservationName", "now"},
                         {"StartTime", "now"},
                         {"Duration", "60"},
                         {"Nodes", "n2"},
                         {"Accounts", "unit"}}),
              "now");
    ASSERT_EQ(create(c, {{"ReservationName", "later"},
                         {"StartTime", "now+1hour"},
                         {"Duration", "60"},
                         {"Nodes", "n1"},
                         {"Accounts", "unit"}}),
              "later");
    Job &in = c.submit();
    in.mutable_extra().reservation = "now";
    Job &early = c.submit();
    early.mutable_extra().reservation = "later";
    c.sched.pass();
    EXPECT_EQ(in.state, uint32_t(DROVER_JOB_RUNNING));
    EXPECT_EQ(c.nodes.names(in.nodes), "n2");
    EXPECT_EQ(early.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(early.reason, "Reservation");
    // Another job in the full reservation waits for it, not for n1, which is free.
    Job &second = c.submit();
    second.mutable_extra().reservation = "now";
    c.sched.pass();
    EXPECT_EQ(second.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(second.reason, "Resources");
    // A job that names a reservation it may not use is refused at submission.
    Job outsider;
    outsider.account = "other";
    outsider.mutable_extra().reservation = "now";
    EXPECT_EQ(c.resv.check_submit(outsider), "Access denied to requested reservation");
    outsider.mutable_extra().reservation = "nosuch";
    EXPECT_EQ(c.resv.check_submit(outsider), "Requested reservation is invalid");
}

TEST(CtldReservations, AFutureOneLetsInOnlyJobsThatEndBeforeIt) {
    Cluster c;
    ASSERT_EQ(create(c, {{"StartTime", "now+30minutes"},
                         {"Duration", "60"},
                         {"Nodes", "n[1-2]"},
                         {"Users", "root"}}),
              "root_1");
    Job &longer = c.submit(60), &shorter = c.submit(20);
    c.sched.pass();
    EXPECT_EQ(longer.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(longer.reason, "Resources");
    EXPECT_EQ(shorter.state, uint32_t(DROVER_JOB_RUNNING));
}

TEST(CtldReservations, MaintenanceIsTheReasonJobsGiveWhenItBarsThem) {
    Cluster c;
    ASSERT_EQ(create(c, {{"StartTime", "now"},
                         {"Duration", "60"},
                         {"Nodes", "ALL"},
                         {"Users", "root"},
                         {"Flags", "MAINT"}}),
              "root_1");
    EXPECT_EQ(format_resv_flags(c.resv.find("root_1")->flags), "MAINT,ALL_NODES");
    Job &j = c.submit();
    c.sched.pass();
    EXPECT_EQ(j.state, uint32_t(DROVER_JOB_PENDING));
    EXPECT_EQ(j.reason, "ReqNodeNotAvail, Reserved for maintenance");
}

TEST(CtldReservations, SlurmsRefusalsAtCreationAndDeletion) {
    Cluster c;
    Job &running = c.submit();
    c.sched.pass();
    ASSERT_EQ(c.nodes.names(running.nodes), "n1");
    const auto base = std::vector<std::pair<std::string, std::string>>{
        {"StartTime", "now"}, {"Duration", "60"}, {"Users", "root"}};
    auto with = [&](std::vector<std::pair<std::string, std::string>> more) {
        auto f = base;
        f.insert(f.end(), more.begin(), more.end());
        return create(c, f);
    };
    EXPECT_EQ(with({{"Nodes", "n1"}}), "refused: Requested nodes are busy");
    EXPECT_EQ(with({{"Nodes", "n9"}}), "refused: Invalid node name specified");
    EXPECT_EQ(with({{"NodeCnt", "2"}, {"PartitionName", "batch"}}),
              "refused: Requested nodes are busy");
    EXPECT_EQ(create(c, {{"StartTime", "now"}, {"Duration", "60"}, {"Nodes", "n2"}}),
              "refused: Either Users or Accounts must be specified");
    EXPECT_EQ(create(c, {{"Duration", "60"}, {"Nodes", "n2"}, {"Users", "root"}}),
              "refused: A start time must be given");
    EXPECT_EQ(with({{"Nodes", "n2"}, {"Users", "no-such-user-here"}}), "refused: Invalid user id");
    // NodeCnt picks the node no job holds.
    EXPECT_EQ(with({{"ReservationName", "one"}, {"NodeCnt", "1"}}), "one");
    EXPECT_EQ(c.resv.find("one")->node_names, std::vector<std::string>{"n2"});
    EXPECT_EQ(with({{"ReservationName", "one"}, {"Nodes", "n2"}}),
              "refused: Duplicate reservation name");
    EXPECT_EQ(with({{"Nodes", "n2"}}),
              "refused: Requested reservation overlaps with another reservation");
    EXPECT_EQ(with({{"ReservationName", "ij"}, {"Nodes", "n1"}, {"Flags", "IGNORE_JOBS"}}), "ij");
    // A reservation a job runs in stays; one nobody runs in goes.
    running.mutable_extra().reservation = "ij";
    EXPECT_EQ(c.resv.remove("ij").text(), "Requested reservation is in use");
    EXPECT_TRUE(c.resv.remove("one").ok());
    EXPECT_EQ(c.resv.remove("one").text(), "Requested reservation is invalid");
}

TEST(CtldReservations, UpdateChangesAllOrNothing) {
    Cluster c;
    ASSERT_EQ(create(c, {{"ReservationName", "r"},
                         {"StartTime", "now+1hour"},
                         {"Duration", "60"},
                         {"Nodes", "n1"},
                         {"Users", "root"}}),
              "r");
    ASSERT_EQ(create(c, {{"ReservationName", "s"},
                         {"StartTime", "now+1hour"},
                         {"Duration", "60"},
                         {"Nodes", "n2"},
                         {"Users", "root"}}),
              "s");
    EXPECT_TRUE(c.resv
                    .update(spec({{"ReservationName", "r"},
                                  {"Users+", "daemon"},
                                  {"Flags+", "DAILY"},
                                  {"Duration", "30"}}))
                    .ok());
    const Reservation *r = c.resv.find("r");
    EXPECT_EQ(r->users.text(), "root,daemon");
    EXPECT_EQ(format_resv_flags(r->flags), "DAILY,SPEC_NODES");
    EXPECT_EQ(r->end - r->start, 1800);
    // Moving onto s's node is refused, and nothing of the line is applied.
    EXPECT_EQ(
        c.resv.update(spec({{"ReservationName", "r"}, {"Nodes", "n2"}, {"Users", "bin"}})).text(),
        "Requested reservation overlaps with another reservation");
    EXPECT_EQ(c.resv.find("r")->users.text(), "root,daemon");
    EXPECT_EQ(c.resv.update(spec({{"ReservationName", "x"}})).text(),
              "Requested reservation is invalid");
}

TEST(CtldReservations, AtItsEndItsJobsGetResvOverRunThenTheirLimit) {
    Cluster c;
    ASSERT_EQ(create(c, {{"ReservationName", "brief"},
                         {"StartTime", "now"},
                         {"EndTime", "now+1"},
                         {"Nodes", "n1"},
                         {"Accounts", "unit"}}),
              "brief");
    Job &in = c.submit(30);
    in.mutable_extra().reservation = "brief";
    Job &out = c.submit(30);
    c.sched.pass();
    ASSERT_EQ(in.state, uint32_t(DROVER_JOB_RUNNING));
    ASSERT_EQ(out.state, uint32_t(DROVER_JOB_RUNNING));
    const int64_t end = c.resv.find("brief")->end;
    while (Ctx::now() <= end) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    c.resv.tick();
    EXPECT_EQ(c.resv.find("brief"), nullptr); // it ended
    // ResvOverRun=0: the job in it may run to the reservation's end (rounded up to a minute),
    // then the time-limit check ends it TIMEOUT; the job outside keeps its limit.
    EXPECT_EQ(in.time_limit_min, 1u);
    EXPECT_EQ(out.time_limit_min, 30u);
}

TEST(CtldReservations, TheStoreBringsThemBack) {
    Cluster c;
    ASSERT_EQ(create(c, {{"ReservationName", "kept"},
                         {"StartTime", "now+1hour"},
                         {"Duration", "60"},
                         {"Nodes", "n[1-2]"},
                         {"Users", "-nobody"},
                         {"Flags", "WEEKLY,OVERLAP"}}),
              "kept");
    c.commit.flush();
    Reservations again{c.ctx, c.nodes, c.jobs};
    again.start();
    const Reservation *r = again.find("kept");
    ASSERT_NE(r, nullptr);
    const Reservation *was = c.resv.find("kept");
    EXPECT_EQ(r->start, was->start);
    EXPECT_EQ(r->end, was->end);
    EXPECT_EQ(r->node_names, (std::vector<std::string>{"n1", "n2"}));
    EXPECT_EQ(r->cpus, 8u);
    EXPECT_EQ(r->users.text(), "-nobody");
    EXPECT_EQ(format_resv_flags(r->flags), "OVERLAP,WEEKLY,SPEC_NODES");
    EXPECT_TRUE(c.resv.remove("kept").ok());
    c.commit.flush();
    Reservations gone{c.ctx, c.nodes, c.jobs};
    gone.start();
    EXPECT_EQ(gone.find("kept"), nullptr);
}

} // namespace
} // namespace drover::ctld
