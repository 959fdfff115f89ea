// resv_test.cpp - a reservation's own rules (flags as scontrol writes them, who it admits, when a
// recurring one comes back) and scontrol's reservation keys read into a ResvSpec.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/timefmt.hpp"
#include "ctld/resv/reservation.hpp"
#include "ctld/resv/resv_spec.hpp"

namespace drover::ctld {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

TEST(ResvFlags, ReadAnyCaseAndShownInSlurmsOrder) {
    const uint64_t f = parse_resv_flags("ignore_jobs,Maint,DAILY");
    EXPECT_EQ(f, uint64_t(kResvMaint | kResvIgnoreJobs | kResvDaily));
    EXPECT_EQ(format_resv_flags(f | kResvSpecNodes), "MAINT,IGNORE_JOBS,DAILY,SPEC_NODES");
    EXPECT_EQ(format_resv_flags(0), "");
    EXPECT_THROW(parse_resv_flags("MAINT,BOGUS"), ParseError);
}

TEST(ResvNameList, AdmitsTheNamedOrAllButTheExcluded) {
    const NameList some = NameList::parse("alice,bob");
    EXPECT_TRUE(some.admits("bob"));
    EXPECT_FALSE(some.admits("carol"));
    EXPECT_EQ(some.text(), "alice,bob");
    const NameList but = NameList::parse("-carol");
    EXPECT_TRUE(but.admits("alice"));
    EXPECT_FALSE(but.admits("carol"));
    EXPECT_EQ(but.text(), "-carol");
    EXPECT_THROW(NameList::parse("alice,-carol"), ParseError);
}

TEST(Reservation, AdmitsAJobOnlyWhenEveryGivenListDoes) {
    Reservation r;
    r.users = NameList::parse("alice");
    EXPECT_TRUE(r.admits("alice", "any"));
    r.accounts = NameList::parse("physics");
    EXPECT_FALSE(r.admits("alice", "chemistry"));
    EXPECT_TRUE(r.admits("alice", "physics"));
    EXPECT_FALSE(r.admits("bob", "physics"));
}

TEST(Reservation, ActiveAndOverlappingByTime) {
    Reservation r;
    r.start = 1000;
    r.end = 2000;
    EXPECT_FALSE(r.active(999));
    EXPECT_TRUE(r.active(1000));
    EXPECT_FALSE(r.active(2000));
    EXPECT_TRUE(r.overlaps(1500, 3000));
    EXPECT_FALSE(r.overlaps(2000, 3000));
    EXPECT_FALSE(r.overlaps(0, 1000));
    EXPECT_TRUE(r.overlaps(0, 0)); // a job without a time limit
}

TEST(Reservation, RecurringOnesComeBackAtTheSameTimeOfDay) {
    std::tm tm{};
    tm.tm_year = 2026 - 1900;
    tm.tm_mon = 10;  // November
    tm.tm_mday = 27; // a Friday
    tm.tm_hour = 22;
    tm.tm_isdst = -1;
    Reservation r;
    r.start = make_local(tm);
    r.end = r.start + 3600;
    EXPECT_FALSE(r.advance()); // not recurring

    Reservation daily = r;
    daily.flags = kResvDaily;
    ASSERT_TRUE(daily.advance());
    EXPECT_EQ(local_tm(daily.start).tm_mday, 28);
    EXPECT_EQ(local_tm(daily.start).tm_hour, 22);
    EXPECT_EQ(daily.end - daily.start, 3600);

    Reservation weekday = r;
    weekday.flags = kResvWeekday; // Friday -> Monday
    ASSERT_TRUE(weekday.advance());
    EXPECT_EQ(local_tm(weekday.start).tm_wday, 1);
    EXPECT_EQ(local_tm(weekday.start).tm_mday, 30);

    Reservation weekend = r;
    weekend.flags = kResvWeekend; // Friday -> Saturday -> Sunday -> next Saturday
    ASSERT_TRUE(weekend.advance());
    EXPECT_EQ(local_tm(weekend.start).tm_wday, 6);
    ASSERT_TRUE(weekend.advance());
    EXPECT_EQ(local_tm(weekend.start).tm_wday, 0);
    ASSERT_TRUE(weekend.advance());
    EXPECT_EQ(local_tm(weekend.start).tm_mday, 5);

    Reservation hourly = r;
    hourly.flags = kResvHourly;
    ASSERT_TRUE(hourly.advance());
    EXPECT_EQ(hourly.start, r.start + 3600);
}

TEST(ResvSpec, ReadsScontrolsKeysAndAliases) {
    const int64_t now = 1'800'000'000;
    ResvSpec s = parse_resv_spec({{"ReservationName", "maint"},
                                  {"starttime", "now+1hour"},
                                  {"Duration", "2:00:00"},
                                  {"Nodes", "n[1-2]"},
                                  {"users", "root,alice"},
                                  {"Flags", "maint,ignore_jobs"},
                                  {"Partition", "batch"}},
                                 now);
    EXPECT_EQ(*s.name, "maint");
    EXPECT_EQ(*s.start, now + 3600);
    EXPECT_EQ(*s.duration_min, 120u);
    EXPECT_EQ(*s.nodes, "n[1-2]");
    EXPECT_EQ(s.users->names, (std::vector<std::string>{"root", "alice"}));
    EXPECT_EQ(*s.flags, uint64_t(kResvMaint | kResvIgnoreJobs));
    EXPECT_EQ(*s.partition, "batch");

    ResvSpec u = parse_resv_spec(
        {{"Reservation", "maint"}, {"Users+", "bob"}, {"Flags-", "MAINT"}, {"NodeCnt", "3"}}, now);
    EXPECT_EQ(u.users_add.names, std::vector<std::string>{"bob"});
    EXPECT_EQ(u.flags_remove, uint64_t(kResvMaint));
    EXPECT_FALSE(u.flags);
    EXPECT_EQ(*u.node_cnt, 3u);
    EXPECT_EQ(*parse_resv_spec({{"Duration", "UNLIMITED"}}, now).duration_min, kInfinite);
    EXPECT_EQ(*parse_resv_spec({{"TRES", "node=2"}}, now).node_cnt, 2u);
}

TEST(ResvSpec, RefusesWhatItCannotReadNamingTheKey) {
    auto refusal = [](const Fields &f) {
        try {
            parse_resv_spec(f, 0);
        } catch (const ParseError &e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(refusal({{"Bogus", "1"}}), "Unknown reservation parameter 'Bogus'");
    EXPECT_EQ(refusal({{"CoreCnt", "4"}}), "CoreCnt= is not supported by Drover yet");
    EXPECT_EQ(refusal({{"StartTime+", "now"}}), "StartTime takes = only (not += or -=)");
    EXPECT_NE(refusal({{"NodeCnt", "0"}}).find("Invalid NodeCnt '0'"), std::string::npos);
    EXPECT_NE(refusal({{"Duration", "soon"}}).find("Invalid Duration 'soon'"), std::string::npos);
    EXPECT_NE(refusal({{"StartTime", "whenever"}}).find("Invalid StartTime"), std::string::npos);
    EXPECT_EQ(refusal({{"Flags", "MAINT,NOPE"}}), "Error parsing flags NOPE");
    EXPECT_NE(refusal({{"TRES", "cpu=4"}}).find("TRES=node=N"), std::string::npos);
    EXPECT_EQ(refusal({{"Nodes", ""}}), "Missing value for Nodes");
}

} // namespace
} // namespace drover::ctld
