// resv_test.cpp - advance reservations in the commands: flag names, scontrol show reservation's
// record, sinfo -T's table, the words of create/update/delete as the pairs sent, and the jobs'
// --reservation on its way into a JobDesc.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <functional>
#include <optional>

#include "cli/job_desc.hpp"
#include "cli/resv_args.hpp"
#include "cli/resv_text.hpp"
#include "common/resv_flags.hpp"
#include "cli/sbatch_opts.hpp"
#include "cli/scontrol_args.hpp"
#include "cli/sinfo_args.hpp"
#include "cli/srun_opts.hpp"
#include "common/error.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;
using drover::cli::test::error_of;
using drover::cli::test::Records;
using drover::cli::test::Resv;

namespace {

using Words = std::vector<std::string>;

constexpr int64_t kNow = 1700000000; // 2023-11-14T22:13:20 UTC

void utc() {
    setenv("TZ", "UTC", 1);
    tzset();
}

// maint: n[1-2] for the hour around kNow, MAINT on the nodes named, for root.
Resv maint() {
    Resv r;
    r.name = "maint";
    r.start = kNow - 600;
    r.end = r.start + 3600;
    r.nodes = "n[1-2]";
    r.node_count = 2;
    r.core_count = 4;
    r.flags = (1u << 0) | (1u << 11); // MAINT, SPEC_NODES
    r.users = "root";
    return r;
}

// Two days of licenses from a day after kNow, for every account but guests.
Resv licenses_only() {
    Resv r;
    r.name = "licenses_only";
    r.start = kNow + 86400;
    r.end = r.start + 2 * 86400;
    r.licenses = "matlab:2";
    r.accounts = "-guests";
    r.partition = "debug";
    r.flags = (1u << 7) | (1u << 2); // WEEKLY, IGNORE_JOBS
    r.max_start_delay_s = 600;
    return r;
}

} // namespace

TEST(ResvFlags, NamesInTheControllersOrder) {
    EXPECT_EQ(format_resv_flags(0), "");
    EXPECT_EQ(format_resv_flags((1u << 11) | (1u << 0)), "MAINT,SPEC_NODES");
    EXPECT_EQ(format_resv_flags((1u << 4) | (1u << 11)), "DAILY,SPEC_NODES");
    EXPECT_EQ(format_resv_flags((1u << 9) | (1u << 10)), "PURGE_COMP,MAGNETIC");
    EXPECT_EQ(format_resv_flags((1u << 14) - 1),
              "MAINT,FLEX,OVERLAP,IGNORE_JOBS,HOURLY,DAILY,WEEKDAY,WEEKEND,WEEKLY,SPEC_NODES,"
              "ALL_NODES,NO_HOLD_JOBS_AFTER,PURGE_COMP,MAGNETIC");
    EXPECT_EQ(format_resv_flags(uint64_t(1) << 40), ""); // a bit this version does not know
}

// A record as a Slurm site published it (scontrol show reservation, Slurm 23.x).
TEST(ResvShow, AsSlurmPrintsIt) {
    utc();
    Resv r;
    r.name = "wigum_9";
    r.start = 1723680000; // 2024-08-15T00:00:00
    r.end = 1724198400;   // 2024-08-21T00:00:00
    r.nodes = "ul-val-pr-cpc[02-03]";
    r.node_count = 2;
    r.core_count = 128;
    r.flags = 1u << 11; // SPEC_NODES
    r.users = "wigum";
    Records rec;
    auto resvs = rec.resvs({r});
    EXPECT_EQ(show_reservation(*resvs[0], 1722470400, false),
              "ReservationName=wigum_9 StartTime=2024-08-15T00:00:00 EndTime=2024-08-21T00:00:00 "
              "Duration=6-00:00:00\n"
              "   Nodes=ul-val-pr-cpc[02-03] NodeCnt=2 CoreCnt=128 Features=(null) "
              "PartitionName=(null) Flags=SPEC_NODES\n"
              "   TRES=cpu=128\n"
              "   Users=wigum Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE "
              "BurstBuffer=(null)\n"
              "   MaxStartDelay=(null)\n"
              "\n");
}

TEST(ResvShow, ActiveOneLinerAndEmptyValues) {
    utc();
    Records rec;
    auto resvs = rec.resvs({maint(), licenses_only()});
    EXPECT_EQ(show_reservation(*resvs[0], kNow, false),
              "ReservationName=maint StartTime=2023-11-14T22:03:20 EndTime=2023-11-14T23:03:20 "
              "Duration=01:00:00\n"
              "   Nodes=n[1-2] NodeCnt=2 CoreCnt=4 Features=(null) PartitionName=(null) "
              "Flags=MAINT,SPEC_NODES\n"
              "   TRES=cpu=4\n"
              "   Users=root Groups=(null) Accounts=(null) Licenses=(null) State=ACTIVE "
              "BurstBuffer=(null)\n"
              "   MaxStartDelay=(null)\n"
              "\n");
    // -o: one line; no nodes is Nodes=(null) and no CPUs an empty TRES, (null).
    EXPECT_EQ(show_reservation(*resvs[1], kNow, true),
              "ReservationName=licenses_only StartTime=2023-11-15T22:13:20 "
              "EndTime=2023-11-17T22:13:20 Duration=2-00:00:00 Nodes=(null) NodeCnt=0 CoreCnt=0 "
              "Features=(null) PartitionName=debug Flags=IGNORE_JOBS,WEEKLY TRES=(null) "
              "Users=(null) Groups=(null) Accounts=-guests Licenses=matlab:2 State=INACTIVE "
              "BurstBuffer=(null) MaxStartDelay=00:10:00\n");
}

TEST(ResvShow, StateAndDuration) {
    Records rec;
    Resv never = maint();
    never.end = 0;
    Resv none = maint();
    none.flags = 0;
    auto resvs = rec.resvs({maint(), never, none});
    const auto &r = *resvs[0];
    // Active from its first second to its last, both included, as Slurm decides it.
    EXPECT_FALSE(resv_active(r, r.start_time() - 1));
    EXPECT_TRUE(resv_active(r, r.start_time()));
    EXPECT_TRUE(resv_active(r, r.end_time()));
    EXPECT_FALSE(resv_active(r, r.end_time() + 1));
    EXPECT_EQ(resv_duration(r), "01:00:00");
    // One that never ends: active once started, no end to show.
    EXPECT_TRUE(resv_active(*resvs[1], kNow + 10 * 86400));
    EXPECT_EQ(resv_duration(*resvs[1]), "UNLIMITED");
    EXPECT_NE(show_reservation(*resvs[1], kNow, true).find("EndTime=Unknown Duration=UNLIMITED"),
              std::string::npos);
    // No flags: an empty value, not (null).
    EXPECT_NE(show_reservation(*resvs[2], kNow, true).find(" Flags= TRES=cpu=4 "),
              std::string::npos);
}

// sinfo -T as a Slurm site published it: the name column as wide as the longest name (at
// least RESV_NAME's 9), the others 8, 19, 19 and 11 wide, right-justified, two spaces apart.
TEST(SinfoReservations, AsSlurmPrintsThem) {
    utc();
    Resv upgrade, fri;
    upgrade.name = "upgrade2";
    upgrade.start = 1603182601; // 2020-10-20T08:30:01
    upgrade.end = 1634718601;
    upgrade.nodes = "nsc-msv[003,008,013,015,018,020]";
    fri.name = "fri";
    fri.start = 1602597452; // 2020-10-13T13:57:32
    fri.end = 1634133452;
    fri.nodes = "nsc-msv[002,019]";
    Records rec;
    auto resvs = rec.resvs({upgrade, fri});
    EXPECT_EQ(sinfo_reservations(resvs, 1602720000, true),
              "RESV_NAME     STATE           START_TIME             END_TIME     DURATION  "
              "NODELIST\n"
              "upgrade2   INACTIVE  2020-10-20T08:30:01  2021-10-20T08:30:01  365-00:00:00  "
              "nsc-msv[003,008,013,015,018,020]\n"
              "fri          ACTIVE  2020-10-13T13:57:32  2021-10-13T13:57:32  365-00:00:00  "
              "nsc-msv[002,019]\n");
}

TEST(SinfoReservations, WidthNoHeaderAndNone) {
    utc();
    Records rec;
    auto resvs = rec.resvs({maint(), licenses_only()});
    EXPECT_EQ(sinfo_reservations(resvs, kNow, true),
              "RESV_NAME         STATE           START_TIME             END_TIME     DURATION  "
              "NODELIST\n"
              "maint            ACTIVE  2023-11-14T22:03:20  2023-11-14T23:03:20     01:00:00  "
              "n[1-2]\n"
              "licenses_only  INACTIVE  2023-11-15T22:13:20  2023-11-17T22:13:20   2-00:00:00  "
              "(null)\n");
    // Slurm widens the name column only when it prints the header.
    EXPECT_EQ(sinfo_reservations(resvs, kNow, false),
              "maint        ACTIVE  2023-11-14T22:03:20  2023-11-14T23:03:20     01:00:00  "
              "n[1-2]\n"
              "licenses_only  INACTIVE  2023-11-15T22:13:20  2023-11-17T22:13:20   2-00:00:00  "
              "(null)\n");
    EXPECT_EQ(sinfo_reservations({}, kNow, true), "No reservations in the system\n");
    EXPECT_EQ(sinfo_reservations({}, kNow, false), "No reservations in the system\n");
}

TEST(SinfoReservations, Args) {
    EXPECT_TRUE(parse_sinfo_args(Words{"-T"}).reservations);
    EXPECT_TRUE(parse_sinfo_args(Words{"--reservation", "-h"}).reservations);
    EXPECT_FALSE(parse_sinfo_args(Words{}).reservations);
}

TEST(ResvArgs, CommandsAndEntities) {
    EXPECT_EQ(match_scontrol_command("create"), ScontrolCmd::create);
    EXPECT_EQ(match_scontrol_command("cr"), ScontrolCmd::create);
    EXPECT_EQ(match_scontrol_command("delete"), ScontrolCmd::remove);
    EXPECT_EQ(match_scontrol_command("DEL"), ScontrolCmd::remove);
    EXPECT_FALSE(match_scontrol_command("de")); // Slurm's "details"
    EXPECT_EQ(match_show_entity("reservation"), ShowWhat::reservation);
    EXPECT_EQ(match_show_entity("res"), ShowWhat::reservation);
    EXPECT_EQ(match_show_entity("ReservationName"), ShowWhat::reservation);
    EXPECT_EQ(match_show_entity("reservations"), ShowWhat::reservation);
    EXPECT_FALSE(match_show_entity("reservationz"));

    EXPECT_TRUE(creates_reservation(Words{"reservation", "StartTime=now"}));
    EXPECT_TRUE(creates_reservation(Words{"res", "PartitionName=debug"}));
    EXPECT_TRUE(creates_reservation(Words{"Users=root", "ReservationName=x"}));
    // The first entity named decides: a partition here.
    EXPECT_FALSE(creates_reservation(Words{"PartitionName=debug", "reservation"}));
    EXPECT_FALSE(creates_reservation(Words{"StartTime=now", "Users=root"}));
    EXPECT_FALSE(creates_reservation(Words{"re", "StartTime=now"})); // three letters at least
}

TEST(ResvArgs, UpdateTargetAsSlurmOrdersIt) {
    EXPECT_EQ(update_target(Words{"ReservationName=maint", "Users+=bob"}), UpdateWhat::reservation);
    EXPECT_EQ(update_target(Words{"Flags=MAINT", "res=maint"}), UpdateWhat::reservation);
    // A reservation's update may name nodes; a job's may name a reservation.
    EXPECT_EQ(update_target(Words{"NodeName=n1", "ReservationName=maint"}),
              UpdateWhat::reservation);
    EXPECT_EQ(update_target(Words{"ReservationName=maint", "JobId=5"}), UpdateWhat::job);
    EXPECT_EQ(update_target(Words{"re=maint"}), UpdateWhat::unknown);
}

TEST(ResvArgs, FieldsAsSent) {
    using Fields = ResvFields;
    EXPECT_EQ(parse_resv_fields(Words{"reservation", "ReservationName=maint", "StartTime=now",
                                      "Duration=60", "Nodes=n[1-2]", "Users=root", "Flags=MAINT"},
                                "No reservation created."),
              (Fields{{"ReservationName", "maint"},
                      {"StartTime", "now"},
                      {"Duration", "60"},
                      {"Nodes", "n[1-2]"},
                      {"Users", "root"},
                      {"Flags", "MAINT"}}));
    // += and -= as keys ending in + and -; values are kept whole (commas, '=' and all).
    EXPECT_EQ(parse_resv_fields(Words{"Users+=bob,carol", "Flags-=DAILY", "TRES=node=2"}, "x"),
              (Fields{{"Users+", "bob,carol"}, {"Flags-", "DAILY"}, {"TRES", "node=2"}}));
    // The name in one spelling; other keys go as written, for the controller to read.
    EXPECT_EQ(parse_resv_fields(Words{"res=a", "RESERVATION=b", "resv=c", "Name=d", "uSeRs=e"}, ""),
              (Fields{{"ReservationName", "a"},
                      {"ReservationName", "b"},
                      {"ReservationName", "c"},
                      {"ReservationName", "d"},
                      {"uSeRs", "e"}}));
    EXPECT_EQ(parse_resv_fields(Words{"Accounts=", "Skip"}, ""),
              (Fields{{"Accounts", ""}, {"Skip", ""}}));
    EXPECT_EQ(error_of([] {
                  parse_resv_fields(Words{"res", "maint"}, "No reservation created.");
              }),
              "Misformatted parameter 'maint', most options have a parameter after '='.  No "
              "reservation created.");
    EXPECT_EQ(error_of([] { parse_resv_fields(Words{"=x"}, "No reservation update."); }),
              "Unknown parameter =x.  No reservation update.");
}

TEST(ResvArgs, UpdateNeedsAName) {
    EXPECT_EQ(parse_resv_update(Words{"ReservationName=maint", "Duration+=30"}),
              (ResvFields{{"ReservationName", "maint"}, {"Duration+", "30"}}));
    EXPECT_EQ(error_of([] { parse_resv_update(Words{"Users=root"}); }),
              "Reservation must be given.  No reservation update.");
}

TEST(ResvArgs, Delete) {
    EXPECT_EQ(parse_resv_delete(Words{"ReservationName=maint"}), "maint");
    EXPECT_EQ(parse_resv_delete(Words{"res=maint"}), "maint");
    EXPECT_EQ(parse_resv_delete(Words{"reservation", "maint"}), "maint");
    EXPECT_EQ(parse_resv_delete(Words{"PartitionName=debug"}), std::nullopt);
    EXPECT_EQ(parse_resv_delete(Words{"job", "5"}), std::nullopt);
    const std::string proper = "Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'";
    EXPECT_EQ(error_of([] { parse_resv_delete(Words{"maint"}); }), proper);
    EXPECT_EQ(error_of([] { parse_resv_delete(Words{"reservation", "a", "b"}); }), proper);
}

// --reservation on sbatch (command line, #SBATCH, SBATCH_RESERVATION), srun (and
// SLURM_RESERVATION) and salloc, as written, into the JobDesc the controller reads.
TEST(ResvJobs, ReservationReachesTheJobDesc) {
    SbatchContext c;
    c.cwd = "/tmp";
    c.now = kNow;
    auto sb = parse_sbatch(Words{"--reservation=maint", "job.sh"}, "#!/bin/sh\n", c);
    EXPECT_TRUE(sb.warnings.empty()); // no longer ignored
    proto::JobDescT d;
    set_allocation(d, sb);
    EXPECT_EQ(d.reservation, "maint");
    EXPECT_EQ(
        parse_sbatch(Words{"job.sh"}, "#!/bin/sh\n#SBATCH --reservation=a,b\n", c).reservation,
        "a,b");
    c.env.push_back({"SBATCH_RESERVATION", "fromenv"});
    EXPECT_EQ(parse_sbatch(Words{"job.sh"}, "#!/bin/sh\n", c).reservation, "fromenv");
    EXPECT_EQ(parse_sbatch(Words{"--reservation", "cli", "job.sh"}, "#!/bin/sh\n", c).reservation,
              "cli");

    auto sr = parse_srun(Words{"--reservation=maint", "true"}, {}, "srun");
    proto::JobDescT ds;
    set_allocation(ds, sr);
    EXPECT_EQ(ds.reservation, "maint");
    EXPECT_EQ(parse_srun(Words{"true"}, {{"SLURM_RESERVATION", "env"}}, "srun").reservation, "env");
    EXPECT_EQ(parse_srun(Words{"--reservation=maint"}, {}, "salloc").reservation, "maint");
    proto::JobDescT none;
    set_allocation(none, parse_srun(Words{"true"}, {}, "srun"));
    EXPECT_EQ(none.reservation, "");
}
