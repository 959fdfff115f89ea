// sdiag_test.cpp - sdiag's report layout.
#include <gtest/gtest.h>

#include "cli/sdiag_text.hpp"

using namespace drover::cli;

TEST(Sdiag, SlurmsLayoutWithDroversCounters) {
    std::string out = sdiag_report({{"now", "1700000000"}, {"since", "1699990000"},
                                    {"dbd_agent_queue_size", "3"}, {"jobs_submitted", "12"},
                                    {"jobs_started", "10"}, {"jobs_completed", "7"},
                                    {"jobs_canceled", "2"}, {"jobs_failed", "1"},
                                    {"jobs_pending", "2"}, {"jobs_running", "1"},
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
                       "Main schedule statistics (microseconds):\n\tTotal cycles: 40\n"),
              std::string::npos)
        << out;
    // Fields the controller did not send print as 0.
    EXPECT_NE(sdiag_report({}).find("Jobs failed:    0\n"), std::string::npos);
}
