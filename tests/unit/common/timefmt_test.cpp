// timefmt_test.cpp - time limits, elapsed times, timestamps and memory sizes, table-driven.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <string>

#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover {
namespace {

TEST(TimeLimit, Parse) {
    const std::pair<const char *, uint32_t> cases[] = {
        {"0", 0},
        {"60", 60},
        {"1:30", 2},
        {"0:30", 1},
        {"0:00", 0},
        {"1:00:00", 60},
        {"2-0", 2880},
        {"1-2:30", 1590},
        {"1-02:03:04", 1564},
        {"1-02:03:00", 1563},
        {"1-00:00:00", 1440},
        {"UNLIMITED", kInfinite},
        {"INFINITE", kInfinite},
        {"infinite", kInfinite},
        {"Unlimited", kInfinite},
        {" 30 ", 30},
        {"90:00", 90},
        {"4294967293", 4294967293u},
    };
    for (const auto &[text, want] : cases) EXPECT_EQ(parse_time_limit(text), want) << text;
}

TEST(TimeLimit, ParseErrors) {
    const char *cases[] = {"",           "-1",          "abc", "1:",        ":1",  "1::2",
                           "1:2:3:4",    "1-",          "-",   "1-2-3",     "1.5", "1h",
                           "4294967294", "99999999999", "1 2", "1-2:3:4:5", "+5",  "0x10"};
    for (const char *c : cases) EXPECT_THROW(parse_time_limit(c), ParseError) << c;
}

TEST(TimeLimit, Format) {
    const std::pair<uint32_t, const char *> cases[] = {
        {kInfinite, "UNLIMITED"},
        {kNoVal, "NONE"},
        {0, "0:00"},
        {5, "5:00"},
        {30, "30:00"},
        {60, "1:00:00"},
        {90, "1:30:00"},
        {1440, "1-00:00:00"},
        {1500, "1-01:00:00"},
        {2880, "2-00:00:00"},
    };
    for (const auto &[min, want] : cases) EXPECT_EQ(format_time_limit(min), want) << min;
}

TEST(TimeLimit, FormatParsesBack) {
    for (uint32_t m : {0u, 1u, 59u, 60u, 61u, 1439u, 1440u, 1441u, 100000u, kInfinite})
        EXPECT_EQ(parse_time_limit(format_time_limit(m)), m) << m;
}

TEST(Elapsed, Format) {
    const std::pair<int64_t, const char *> cases[] = {
        {0, "0:00"},       {5, "0:05"},       {65, "1:05"},          {303, "5:03"},
        {3600, "1:00:00"}, {3723, "1:02:03"}, {90000, "1-01:00:00"}, {176523, "2-01:02:03"},
        {-5, "0:00"},
    };
    for (const auto &[s, want] : cases) EXPECT_EQ(format_elapsed(s), want) << s;
}

TEST(Elapsed, FormatHms) {
    const std::pair<int64_t, const char *> cases[] = {
        {0, "00:00:00"},     {5, "00:00:05"},       {3723, "01:02:03"},
        {86399, "23:59:59"}, {90000, "1-01:00:00"}, {93784, "1-02:03:04"},
    };
    for (const auto &[s, want] : cases) EXPECT_EQ(format_elapsed_hms(s), want) << s;
}

class Timestamp : public ::testing::Test {
  protected:
    void SetUp() override {
        setenv("TZ", "UTC", 1);
        tzset();
    }
    // 2026-11-21T04:01:02 UTC
    static constexpr int64_t kNow = 1795233662;
    static constexpr int64_t kMidnight = kNow - (4 * 3600 + 62);
};

TEST_F(Timestamp, Format) {
    EXPECT_EQ(format_timestamp(kNow), "2026-11-21T04:01:02");
    EXPECT_EQ(format_timestamp(0), "Unknown");
    EXPECT_EQ(format_timestamp(0, true), "N/A");
}

TEST_F(Timestamp, Parse) {
    const std::pair<const char *, int64_t> cases[] = {
        {"now", kNow},
        {"NOW", kNow},
        {"now+60", kNow + 60},
        {"now+1hour", kNow + 3600},
        {"now+2hours", kNow + 7200},
        {"now+5minutes", kNow + 300},
        {"now+30seconds", kNow + 30},
        {"now+1day", kNow + 86400},
        {"now+1week", kNow + 7 * 86400},
        {"now-10", kNow - 10},
        {"today", kMidnight},
        {"tomorrow", kMidnight + 86400},
        {"midnight", kMidnight + 86400},
        {"noon", kMidnight + 12 * 3600},
        {"teatime", kMidnight + 16 * 3600},
        {"2026-11-21", kMidnight},
        {"2026-11-21T10:30", kMidnight + 10 * 3600 + 1800},
        {"2026-11-21T10:30:15", kMidnight + 10 * 3600 + 1815},
        {"2026-11-22", kMidnight + 86400},
        {"10:00", kMidnight + 10 * 3600},
        {"10:00:30", kMidnight + 10 * 3600 + 30},
        {"03:00", kMidnight + 86400 + 3 * 3600}, // already past: tomorrow
        {"4:01:02", kNow},
        {"3:00pm", kMidnight + 15 * 3600},
        {"12:30am", kMidnight + 86400 + 1800},
        {"11/22", kMidnight + 86400},
        {"11/22/26", kMidnight + 86400},
        {"11/22/2027", kMidnight + 86400 + 365 * 86400},
        {"01/01", 1798761600}, // already past this year: next year (2027-01-01)
        {"elevenses", kMidnight + 11 * 3600},
        {"noon tomorrow", kMidnight + 86400 + 12 * 3600},
        {"tomorrow noon", kMidnight + 86400 + 12 * 3600},
        {"noon-tomorrow", kMidnight + 86400 + 12 * 3600},
        {"tomorrow-3:00 pm", kMidnight + 86400 + 15 * 3600},
        {"today 03:00", kMidnight + 3 * 3600}, // a day given: no rolling over
        {"2026-11-21 teatime", kMidnight + 16 * 3600},
        {"11/22T10:00", kMidnight + 86400 + 10 * 3600},
        {"1122", kMidnight + 86400},
        {"112226", kMidnight + 86400},
        {"11.22.26", kMidnight + 86400},
        {"11.22 noon", kMidnight + 86400 + 12 * 3600},
        {"uts1800000000", 1800000000},
    };
    for (const auto &[text, want] : cases) {
        if (want < 0) {
            EXPECT_THROW(parse_timestamp(text, kNow), ParseError) << text;
            continue;
        }
        EXPECT_EQ(parse_timestamp(text, kNow), want) << text;
    }
}

TEST_F(Timestamp, ParseErrors) {
    const char *cases[] = {
        "",           "yesterday",      "now+",        "now+1fortnight", "now1",
        "2026-13-01", "2026-02-30",     "2026-11-21X", "25:00",          "10:60",
        "13/01",      "1/1/1",          "soon",        "12:00:00:00",    "now+99999999999999",
        "noon noon",  "today tomorrow", "uts12",       "1122 teatime x", "4pm"};
    for (const char *c : cases) EXPECT_THROW(parse_timestamp(c, kNow), ParseError) << c;
}

TEST(SizeMb, Parse) {
    const std::pair<const char *, uint64_t> cases[] = {
        {"0", 0},
        {"100", 100},
        {"100K", 1},
        {"1024K", 1},
        {"1025k", 2},
        {"100M", 100},
        {"100m", 100},
        {"4G", 4096},
        {"4g", 4096},
        {"1T", 1048576},
        {"0K", 0},
        {" 64 ", 64},
        {"18446744073709551615", 18446744073709551615ull},
    };
    for (const auto &[text, want] : cases) EXPECT_EQ(parse_size_mb(text), want) << text;
}

TEST(SizeMb, ParseErrors) {
    const char *cases[] = {"",
                           "G",
                           "-1",
                           "1.5G",
                           "4GB",
                           "4X",
                           "abc",
                           "4 G",
                           "18446744073709551616",
                           "99999999999999999999T",
                           "18014398509481984G"};
    for (const char *c : cases) EXPECT_THROW(parse_size_mb(c), ParseError) << c;
}

TEST(SizeMb, Format) {
    const std::pair<uint64_t, const char *> cases[] = {
        {0, "0"},     {100, "100M"},   {1024, "1G"},       {1536, "1536M"},
        {4096, "4G"}, {1048576, "1T"}, {1049600, "1025G"},
    };
    for (const auto &[mb, want] : cases) EXPECT_EQ(format_size_mb(mb), want) << mb;
}

TEST(SizeMb, FormatParsesBack) {
    for (uint64_t mb :
         {0ull, 1ull, 1023ull, 1024ull, 1536ull, 1048576ull, 1099511627776ull, 123456789ull})
        EXPECT_EQ(parse_size_mb(format_size_mb(mb)), mb) << mb;
}

} // namespace
} // namespace drover
