// sdiag_test.cpp - sdiag's report layout.
#include <gtest/gtest.h>

#include "cli/sdiag_text.hpp"

using namespace drover::cli;

TEST(Sdiag, SlurmsLayoutWithDroversCounters) {
    std::string out = sdiag_report({{"now", "1700000000"},
                                    {"since", "1699990000"},
                                    {"dbd_agent_queue_size", "3"},
                                    {"jobs_submitted", "12"},
                                    {"jobs_started", "10"},
                                    {"jobs_completed", "7"},
                                    {"jobs_canceled", "2"},
                                    {"jobs_failed", "1"},
                                    {"jobs_pending", "2"},
                                    {"jobs_running", "1"},
                                    {"schedule_cycles", "40"}});
    const std::string stars = "*******************************************************\n";
    ASSERT_EQ(out.substr(0, stars.size()), stars);
    EXPECT_NE(out.find("\nsdiag output at "), std::string::npos);
    EXPECT_NE(out.find(" (1700000000)\nData since      "), std::string::npos);
    EXPECT_NE(out.find(" (1699990000)\n" + stars), std::string::npos);
    EXPECT_NE(out.find("DBD Agent queue size: 3\n\n"
                       "Jobs submitted: 12\nJobs started:   10\nJobs completed: 7\n"
                       "Jobs canceled:  2\nJobs failed:    1\n\nJob states ts:  "),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("Jobs pending:   2\nJobs running:   1\n\n"
                       "Main schedule statistics (microseconds):\n\tLast cycle:   0\n"
                       "\tMax cycle:    0\n\tTotal cycles: 40\n\tMean cycle:   0\n"
                       "\tMean depth cycle:  0\n\tCycles per minute: 0\n"
                       "\tLast queue length: 0\n"),
              std::string::npos)
        << out;
    EXPECT_EQ(out.find("Backfilling"), std::string::npos)
        << "no backfill section without bf_ fields";
    // Fields the controller did not send print as 0.
    EXPECT_NE(sdiag_report({}).find("Jobs failed:    0\n"), std::string::npos);
}

TEST(Sdiag, MainSchedulerFigures) {
    std::string out = sdiag_report({{"now", "1700000600"},
                                    {"since", "1700000000"},
                                    {"schedule_cycles", "20"},
                                    {"schedule_cycle_last", "150"},
                                    {"schedule_cycle_max", "900"},
                                    {"schedule_cycle_sum", "4000"},
                                    {"schedule_cycle_depth", "60"},
                                    {"schedule_queue_length", "4"}});
    EXPECT_NE(out.find("Main schedule statistics (microseconds):\n\tLast cycle:   150\n"
                       "\tMax cycle:    900\n\tTotal cycles: 20\n\tMean cycle:   200\n"
                       "\tMean depth cycle:  3\n\tCycles per minute: 2\n"
                       "\tLast queue length: 4\n"),
              std::string::npos)
        << out;
    // No means before the first cycle, no rate within the first minute.
    out = sdiag_report({{"now", "1700000030"}, {"since", "1700000000"}});
    EXPECT_NE(out.find("\tTotal cycles: 0\n\tLast queue length: 0\n"), std::string::npos) << out;
}

TEST(Sdiag, BackfillSectionFromThePluginsCounters) {
    std::string out = sdiag_report({{"now", "1700000600"},
                                    {"since", "1700000000"},
                                    {"bf_backfilled_jobs", "7"},
                                    {"bf_backfilled_jobs_since_reset", "5"},
                                    {"bf_cycles", "4"},
                                    {"bf_last_cycle_when", "1700000590"},
                                    {"bf_last_cycle_usec", "120"},
                                    {"bf_max_cycle_usec", "300"},
                                    {"bf_cycle_usec_sum", "800"},
                                    {"bf_last_depth", "9"},
                                    {"bf_last_depth_try", "6"},
                                    {"bf_depth_sum", "30"},
                                    {"bf_depth_try_sum", "20"},
                                    {"bf_last_queue_length", "10"},
                                    {"bf_queue_length_sum", "36"},
                                    {"bf_last_table_size", "12"},
                                    {"bf_table_size_sum", "44"}});
    const auto at = out.find("\nBackfilling stats\n");
    ASSERT_NE(at, std::string::npos) << out;
    const std::string section = out.substr(at);
    EXPECT_NE(section.find("\tTotal backfilled jobs (since last slurm start): 7\n"
                           "\tTotal backfilled jobs (since last stats cycle start): 5\n"
                           "\tTotal backfilled heterogeneous job components: 0\n"
                           "\tTotal cycles: 4\n\tLast cycle when: "),
              std::string::npos)
        << section;
    EXPECT_NE(section.find(" (1700000590)\n\tLast cycle: 120\n\tMax cycle:  300\n"
                           "\tMean cycle: 200\n\tLast depth cycle: 9\n"
                           "\tLast depth cycle (try sched): 6\n\tDepth Mean: 7\n"
                           "\tDepth Mean (try depth): 5\n\tLast queue length: 10\n"
                           "\tQueue length mean: 9\n\tLast table size: 12\n"
                           "\tMean table size: 11\n"),
              std::string::npos)
        << section;
    // Before its first cycle: N/A and no means.
    out = sdiag_report({{"bf_cycles", "0"}});
    EXPECT_NE(out.find("\tTotal cycles: 0\n\tLast cycle when: N/A\n\tLast cycle: 0\n"
                       "\tMax cycle:  0\n\tLast depth cycle: 0\n"
                       "\tLast depth cycle (try sched): 0\n\tLast queue length: 0\n"
                       "\tLast table size: 0\n"),
              std::string::npos)
        << out;
}
