// submit_body_test.cpp - slurmrestd's job_desc_msg fields become the sbatch options they mean,
// and what is no submission is refused naming the field.
#include <gtest/gtest.h>

#include "restd/submit_body.hpp"

namespace drover::restd {
namespace {

TEST(SubmitBodyTest, TheSeedsSubmissionBecomesSbatchOptions) {
    SubmitBody b = parse_submit_body(R"({
      "script": "#!/bin/bash\nhostname",
      "job": {"name": "ox_test", "partition": "normal", "cpus_per_task": 4,
              "memory_per_node": {"number": 8, "set": true, "infinite": false}, "tasks": 1,
              "environment": ["PATH=/bin", "HOME=/tmp"], "current_working_directory": "/w"}})");
    EXPECT_EQ(b.script, "#!/bin/bash\nhostname");
    EXPECT_EQ(b.options, (std::vector<std::string>{"--job-name=ox_test", "--partition=normal",
                                                   "--cpus-per-task=4", "--mem=8", "--ntasks=1",
                                                   "--chdir=/w"}));
    EXPECT_EQ(b.environment, (cli::Env{{"PATH", "/bin"}, {"HOME", "/tmp"}}));
    EXPECT_EQ(b.cwd, "/w");
}

TEST(SubmitBodyTest, NumbersUnsetOrInfiniteAreNotGiven) {
    SubmitBody b = parse_submit_body(R"({"script": "#!/bin/sh", "job": {
        "time_limit": {"number": 0, "set": false, "infinite": false},
        "memory_per_cpu": {"number": 0, "set": true, "infinite": true},
        "nice": -5, "hold": true, "requeue": false, "argv": ["x"], "environment": {"A": "1"}}})");
    EXPECT_EQ(b.options, (std::vector<std::string>{"--nice=-5", "--hold", "--no-requeue"}));
    EXPECT_EQ(b.argv, std::vector<std::string>{"x"});
    EXPECT_EQ(b.environment, (cli::Env{{"A", "1"}}));
}

TEST(SubmitBodyTest, TheScriptMayComeInsideTheJob) {
    EXPECT_EQ(parse_submit_body(R"({"job": {"script": "#!/bin/sh"}})").script, "#!/bin/sh");
}

void refused(const char *body, const char *says) {
    try {
        parse_submit_body(body);
        ADD_FAILURE() << body << " was taken";
    } catch (const BadRequest &e) {
        EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
}

TEST(SubmitBodyTest, RefusesWhatIsNoSubmission) {
    refused("", "body: expected a value at byte 0");
    refused("[1]", "body: expected an object");
    refused(R"({"script": "#!/bin/sh"})", "job: expected an object");
    refused(R"({"job": {}})", "script: a batch script is required");
    refused(R"({"script": 3, "job": {}})", "script: expected a string, got number");
    refused(R"({"script": "#!/bin/sh", "job": {"tasks": "two"}})",
            "job.tasks: expected an integer, got string");
    refused(R"({"script": "#!/bin/sh", "job": {"tasks": 1.5}})", "job.tasks: expected an integer");
    refused(R"({"script": "#!/bin/sh", "job": {"colour": "blue"}})", "job.colour: unknown field");
    refused(R"({"script": "#!/bin/sh", "job": {}, "extra": 1})", "extra: unknown field");
    refused(R"({"script": "#!/bin/sh", "job": {"environment": ["NOEQUALS"]}})",
            "job.environment: 'NOEQUALS' is not NAME=value");
    refused(R"({"script": "#!/bin/sh", "job": {"hold": "yes"}})",
            "job.hold: expected true or false");
    refused(R"({"script": "#!/bin/sh", "jobs": []})", "jobs: expected an array");
    refused(R"({"script": "#!/bin/sh", "jobs": [{}, 2]})", "jobs[1]: expected an object");
    refused(R"({"script": "#!/bin/sh", "job": {}, "jobs": [{}]})", "jobs: give either job or jobs");
}

// "jobs": a heterogeneous job, one object per component; the first one's fields fill the body,
// each later one's become the options of its component (as sbatch's 'A : B').
TEST(SubmitBodyTest, JobsAreTheComponentsOfAHeterogeneousJob) {
    SubmitBody b = parse_submit_body(R"({"script": "#!/bin/sh", "jobs": [
        {"name": "het", "tasks": 1, "environment": ["A=1"]},
        {"tasks": 4, "minimum_nodes": 2}]})");
    EXPECT_EQ(b.environment, (cli::Env{{"A", "1"}}));
    ASSERT_EQ(b.het_options.size(), 1u);
    EXPECT_EQ(b.het_options[0], (std::vector<std::string>{"--ntasks=4", "--nodes=2"}));
}

} // namespace
} // namespace drover::restd
