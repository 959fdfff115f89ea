// json_steps_test.cpp - sacct --json: each job carries its recorded steps in Slurm's shape (id,
// name, state, exit code, nodes, tasks, times, allocated TRES and, once ended, the usage).
#include <drover/proctrack.h>
#include <gtest/gtest.h>

#include "cli/json_records.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;
using drover::cli::test::Acct;
using drover::cli::test::AcctStepSpec;
using drover::cli::test::Records;

namespace {

constexpr int64_t kNow = 1700000000;

// The text from the first line holding `from`, for the few lines after it.
std::string around(const std::string &doc, const std::string &from, std::size_t len = 400) {
    auto at = doc.find(from);
    return at == std::string::npos ? "(missing " + from + ")" : doc.substr(at, len);
}

// Removes the layout (line breaks, indentation, the space after a key) so that the expectations
// can be written one line each.
std::string flat(const std::string &s) {
    std::string out;
    bool lead = true;
    for (char c : s) {
        if (c == '\n') {
            lead = true;
            continue;
        }
        if (lead && c == ' ') continue;
        lead = false;
        if (c == ' ' && out.size() >= 2 && out.back() == ':' && out[out.size() - 2] == '"')
            continue;
        out += c;
    }
    return out;
}

Acct job() {
    Acct a;
    a.id = 12;
    AcctStepSpec batch;
    batch.id = DROVER_STEP_BATCH;
    batch.name = "batch";
    batch.cpus = 2;
    batch.tres = "cpu=2,mem=1G,node=1";
    batch.max_rss = uint64_t{3} << 20;
    batch.max_rss_node = "n1";
    batch.max_rss_task = 0;
    batch.ave_rss = uint64_t{2} << 20;
    batch.user_cpu_usec = 1'250'000;
    batch.sys_cpu_usec = 500'000;
    batch.ave_cpu_usec = 1'750'000;
    batch.min_cpu_usec = 1'750'000;
    batch.max_disk_write = 4096;
    batch.max_disk_write_node = "n1";
    AcctStepSpec srun;
    srun.id = 0;
    srun.name = "hostname";
    srun.nodes = "n[1-2]";
    srun.nodes_count = 2;
    srun.tasks = 4;
    srun.state = DROVER_JOB_FAILED;
    srun.exit_status = 3 << 8;
    srun.tres = "cpu=4,gres/gpu=2,node=2";
    AcctStepSpec running;
    running.id = 1;
    running.name = "sleep";
    running.state = DROVER_JOB_RUNNING;
    running.end = 0;
    running.user_cpu_usec = 9'000'000; // not in the record until it ends
    a.steps = {running, srun, batch};
    return a;
}

} // namespace

TEST(JsonSteps, EachJobCarriesItsStepsInSacctsOrder) {
    Records rec;
    const std::string doc = flat(acct_jobs_json(rec.acct({job()}), kNow));
    const auto b = doc.find("\"id\":\"12.batch\""), s0 = doc.find("\"id\":\"12.0\""),
               s1 = doc.find("\"id\":\"12.1\"");
    ASSERT_NE(b, std::string::npos) << doc;
    ASSERT_NE(s0, std::string::npos) << doc;
    ASSERT_NE(s1, std::string::npos) << doc;
    EXPECT_LT(b, s0);
    EXPECT_LT(s0, s1);
}

TEST(JsonSteps, AnEndedStepWithItsUsage) {
    Records rec;
    const std::string doc = flat(acct_jobs_json(rec.acct({job()}), kNow));
    // The batch step, from its exit code on.
    const auto start = doc.rfind("{\"exit_code\"", doc.find("\"id\":\"12.batch\""));
    ASSERT_NE(start, std::string::npos) << doc;
    const std::string step = doc.substr(start, doc.find("\"id\":\"12.0\"") - start);
    EXPECT_NE(step.find("\"exit_code\":{\"status\":[\"SUCCESS\"],\"return_code\":{\"set\":true,"
                        "\"infinite\":false,\"number\":0}"),
              std::string::npos)
        << step;
    EXPECT_NE(step.find("\"nodes\":{\"count\":1,\"range\":\"n1\",\"list\":[\"n1\"]}"),
              std::string::npos)
        << step;
    EXPECT_NE(step.find("\"state\":[\"COMPLETED\"]"), std::string::npos) << step;
    EXPECT_NE(step.find("\"step\":{\"id\":\"12.batch\",\"name\":\"batch\"}"), std::string::npos)
        << step;
    EXPECT_NE(step.find("\"tasks\":{\"count\":1}"), std::string::npos) << step;
    EXPECT_NE(step.find("\"time\":{\"elapsed\":60,\"end\":1070,\"start\":1010,\"suspended\":0,"
                        "\"system\":{\"seconds\":0,\"microseconds\":500000},"
                        "\"total\":{\"seconds\":1,\"microseconds\":750000},"
                        "\"user\":{\"seconds\":1,\"microseconds\":250000}}"),
              std::string::npos)
        << step;
    EXPECT_NE(step.find("\"allocated\":[{\"type\":\"cpu\",\"name\":\"\",\"id\":1,\"count\":2},"
                        "{\"type\":\"mem\",\"name\":\"\",\"id\":2,\"count\":1024},"
                        "{\"type\":\"node\",\"name\":\"\",\"id\":4,\"count\":1}]"),
              std::string::npos)
        << step;
    EXPECT_NE(
        step.find(
            "\"consumed\":{\"average\":[{\"type\":\"fs\",\"name\":\"disk\",\"id\":6,\"count\":0}],"
            "\"max\":[{\"type\":\"fs\",\"name\":\"disk\",\"id\":6,\"count\":4096,\"node\":\"n1\"}"
            "]"),
        std::string::npos)
        << step;
    EXPECT_NE(step.find("\"max\":[{\"type\":\"mem\",\"name\":\"\",\"id\":2,\"count\":3145728,"
                        "\"node\":\"n1\",\"task\":0}"),
              std::string::npos)
        << step;
    EXPECT_NE(step.find("\"min\":[{\"type\":\"cpu\",\"name\":\"\",\"id\":1,\"count\":1750}]"),
              std::string::npos)
        << step;
    EXPECT_NE(step.find("\"total\":[{\"type\":\"cpu\",\"name\":\"\",\"id\":1,\"count\":1750}]"),
              std::string::npos)
        << step;
}

TEST(JsonSteps, AFailedStepAndARunningOne) {
    Records rec;
    const std::string doc = flat(acct_jobs_json(rec.acct({job()}), kNow));
    const std::string failed = around(doc, "{\"exit_code\":{\"status\":[\"ERROR\"]", 2000);
    EXPECT_NE(failed.find("\"return_code\":{\"set\":true,\"infinite\":false,\"number\":3}"),
              std::string::npos)
        << failed;
    EXPECT_NE(failed.find("\"list\":[\"n1\",\"n2\"]"), std::string::npos) << failed;
    EXPECT_NE(failed.find("\"state\":[\"FAILED\"]"), std::string::npos) << failed;
    EXPECT_NE(failed.find("{\"type\":\"gres\",\"name\":\"gpu\",\"id\":0,\"count\":2}"),
              std::string::npos)
        << failed;
    // Running: no end, no usage yet; elapsed up to now.
    const auto at = doc.rfind("{\"exit_code\"", doc.find("\"id\":\"12.1\""));
    const std::string running = doc.substr(at);
    EXPECT_NE(running.find("\"exit_code\":{\"status\":[\"PENDING\"]"), std::string::npos)
        << running;
    EXPECT_NE(running.find("\"state\":[\"RUNNING\"]"), std::string::npos) << running;
    EXPECT_NE(running.find("\"elapsed\":" + std::to_string(kNow - 1010) + ",\"end\":0"),
              std::string::npos)
        << running;
    EXPECT_NE(running.find("\"user\":{\"seconds\":0,\"microseconds\":0}"), std::string::npos)
        << running;
    EXPECT_NE(running.find("\"requested\":{\"average\":[],\"max\":[],\"min\":[],\"total\":[]}"),
              std::string::npos)
        << running;
}

TEST(JsonSteps, AJobWithoutStepsHasAnEmptyList) {
    Records rec;
    Acct pending;
    pending.state = DROVER_JOB_PENDING;
    pending.start = pending.end = 0;
    const std::string doc = flat(acct_jobs_json(rec.acct({pending}), kNow));
    EXPECT_NE(doc.find("\"steps\":[]"), std::string::npos) << doc;
}
