// openmetrics_text_test.cpp - the OpenMetrics text the controller's metrics endpoints write.
#include <gtest/gtest.h>

#include "ctld/metrics/openmetrics_text.hpp"

using drover::ctld::OpenMetricsText;

TEST(OpenMetricsText, FamiliesSamplesAndTheEnd) {
    OpenMetricsText t;
    t.family("slurm_jobs", "gauge", "Jobs by state");
    t.sample({{"state", "pending"}}, 3);
    t.sample({{"state", "running"}}, 0);
    t.family("slurm_jobs_submitted", "counter", "Jobs submitted");
    t.sample(12);
    t.family("slurm_sched_cycle_last_seconds", "gauge", "The last pass");
    t.sample(0.0125);
    EXPECT_EQ(t.finish(), "# TYPE slurm_jobs gauge\n# HELP slurm_jobs Jobs by state\n"
                          "slurm_jobs{state=\"pending\"} 3\nslurm_jobs{state=\"running\"} 0\n"
                          "# TYPE slurm_jobs_submitted counter\n"
                          "# HELP slurm_jobs_submitted Jobs submitted\n"
                          "slurm_jobs_submitted_total 12\n"
                          "# TYPE slurm_sched_cycle_last_seconds gauge\n"
                          "# HELP slurm_sched_cycle_last_seconds The last pass\n"
                          "slurm_sched_cycle_last_seconds 0.0125\n# EOF\n");
}

TEST(OpenMetricsText, EscapesLabelValues) {
    OpenMetricsText t;
    t.family("slurm_partition_nodes", "gauge", "Nodes");
    t.sample({{"partition", "a\"b\\c\nd"}, {"state", "x"}}, 1);
    EXPECT_NE(
        t.finish().find("slurm_partition_nodes{partition=\"a\\\"b\\\\c\\nd\",state=\"x\"} 1\n"),
        std::string::npos);
}

TEST(OpenMetricsText, ABytesThatAreNoUtf8BecomeTheReplacementCharacter) {
    OpenMetricsText t;
    t.family("slurm_account_jobs", "gauge", "Jobs");
    t.sample({{"account", "a\xff\x01"
                          "b\xc3\xa9"}},
             1); // invalid, control, then a valid "é"
    EXPECT_NE(t.finish().find("{account=\"a\xEF\xBF\xBD\xEF\xBF\xBD"
                              "b\xc3\xa9\"} 1\n"),
              std::string::npos);
}

TEST(OpenMetricsText, KeepsEveryDigitOfALargeCounter) {
    OpenMetricsText t;
    t.family("slurm_state_commit_seconds", "counter", "Time");
    t.sample(123456.789012);
    EXPECT_NE(t.finish().find("slurm_state_commit_seconds_total 123456.789012\n"),
              std::string::npos);
}
