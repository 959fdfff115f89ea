// kill_body_test.cpp - DELETE /slurm/vX/jobs's body read as scancel's request: the jobs named (as
// text or numbers), the signal by name or number, the flags and filters, and the refusals.
#include <gtest/gtest.h>

#include <csignal>

#include <drover/views.h>

#include "restd/kill_body.hpp"
#include "restd/submit_body.hpp"

namespace drover::restd {
namespace {

std::string refusal(std::string_view body) {
    try {
        parse_kill_body(body);
    } catch (const BadRequest &e) {
        return e.what();
    }
    return "no error";
}

TEST(KillBodyTest, JobsSignalFlagsAndFilters) {
    KillBody k = parse_kill_body(R"({"jobs": ["12", 13, "93+1"], "signal": "SIGUSR1",
                                     "flags": ["BATCH_JOB", "HURRY"]})");
    EXPECT_EQ(k.jobs, (std::vector<std::string>{"12", "13", "93+1"}));
    EXPECT_EQ(k.signal, SIGUSR1);
    EXPECT_TRUE(k.batch_only);
    EXPECT_FALSE(k.full);
    EXPECT_EQ(parse_kill_body(R"({"jobs": "7"})").signal, SIGKILL) << "cancel by default";
    KillBody f = parse_kill_body(R"({"user_name": "alice", "job_state": "PENDING",
                                     "signal": 15, "flags": "FULL_JOB"})");
    EXPECT_EQ(f.user_name, "alice");
    EXPECT_EQ(f.states, (std::vector<uint32_t>{DROVER_JOB_PENDING}));
    EXPECT_EQ(f.signal, SIGTERM);
    EXPECT_TRUE(f.full);
}

TEST(KillBodyTest, RefusesWhatIsNoKillRequest) {
    EXPECT_EQ(refusal("[1]"), "body: expected an object");
    EXPECT_EQ(refusal("{}"), "jobs: no job and no filter given");
    EXPECT_EQ(refusal(R"({"jobs": ["1"], "signal": "SIGNOPE"})"), "signal: unknown signal SIGNOPE");
    EXPECT_EQ(refusal(R"({"jobs": ["1"], "flags": ["EVERYTHING"]})"),
              "flags: unknown flag EVERYTHING");
    EXPECT_EQ(refusal(R"({"job_state": ["DREAMING"]})"), "job_state: unknown job state DREAMING");
    EXPECT_EQ(refusal(R"({"jobs": [true]})"), "jobs: expected a string, got boolean");
    EXPECT_EQ(refusal(R"({"colour": "blue"})"), "colour: unknown field");
}

} // namespace
} // namespace drover::restd
