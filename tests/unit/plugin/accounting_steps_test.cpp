// accounting_steps_test.cpp - step records in both stores (accounting/lmdb, and accounting/postgres
// against a server the test starts): step_event upserts, job_step_query streams each matching job
// followed by its steps, every member survives the trip, filters and stops apply to steps too;
// a job submitted again keeps its ended run apart, shown with duplicates (sacct -D); sacct's
// cluster and node filters (ABI 1.7) apply in the store.
#include <drover/proctrack.h>

#include <algorithm>
#include <memory>

#include <gtest/gtest.h>

#include "store_fixture.hpp"

namespace drover::plugin::test {
namespace {

// One callback, in the order it came: "job 3" or "step 3.4294967291".
struct Seen {
    std::vector<std::string> order;
    std::vector<drover_acct_step> steps; // numbers only (strings copied below)
    std::vector<std::vector<std::string>> texts;
    int stop_at = 0; // stop after this many callbacks (0: never)
};

class AccountingSteps : public StoreTest {
  protected:
    void job(uint32_t id, uint32_t user, int64_t end, int event = DROVER_ACCT_JOB_END,
             uint32_t state = DROVER_NO_VAL) {
        drover_acct_job j{};
        j.struct_size = sizeof j;
        j.job_id = id;
        j.user_id = user;
        j.cluster = str(cluster_);
        j.name = str(name_);
        j.state = state != DROVER_NO_VAL ? state
                  : end                  ? uint32_t(DROVER_JOB_COMPLETE)
                                         : uint32_t(DROVER_JOB_RUNNING);
        j.submit_time = 100;
        j.start_time = 110;
        j.end_time = end;
        j.array_task_id = DROVER_NO_VAL;
        drover_error err{};
        ASSERT_EQ(acct().ops.job_event(acct().state, event, &j, &err), DROVER_OK) << err.text;
    }

    // A step with every member set from its ids, so that a round trip can be checked whole.
    drover_acct_step step(uint32_t job, uint32_t id, bool ended) {
        drover_acct_step s{};
        s.struct_size = sizeof s;
        s.job_id = job;
        s.step_id = id;
        s.name = str(step_name_);
        s.node_list = str(nodes_);
        s.nodes = 2;
        s.tasks = 8;
        s.cpus = 16;
        s.req_mem_mb = 4096;
        s.state = ended ? DROVER_JOB_FAILED : DROVER_JOB_RUNNING;
        s.exit_status = ended ? 2 << 8 : 0;
        s.start_time = 120;
        s.end_time = ended ? 180 : 0;
        s.cancelled_by = DROVER_NO_VAL;
        s.max_rss_task = 3;
        s.max_rss = uint64_t{5} << 40; // past 32 bits: held whole
        s.ave_rss = 1000;
        s.max_rss_node = str(node_a_);
        s.max_vsize = ~uint64_t{0} - 7; // past int64: held as its bits
        s.ave_vsize = 2000;
        s.max_vsize_node = str(node_b_);
        s.ave_cpu_usec = 3000;
        s.user_cpu_usec = 4000;
        s.sys_cpu_usec = 5000;
        s.max_disk_read = 6000;
        s.max_disk_write = 7000;
        s.max_disk_read_node = str(node_a_);
        s.max_disk_write_node = str(node_b_);
        s.tres_alloc = str(tres_);
        s.min_cpu_usec = 8000;
        s.ave_disk_read = 9000;
        s.ave_disk_write = 10000;
        return s;
    }

    void record(int event, const drover_acct_step &s) {
        drover_error err{};
        ASSERT_EQ(acct().ops.step_event(acct().state, event, &s, &err), DROVER_OK) << err.text;
    }

    Seen query(drover_acct_query q, bool with_steps = true, int stop_at = 0) {
        Seen seen;
        seen.stop_at = stop_at;
        auto emit = [](void *arg, const drover_acct_job *j) -> int {
            auto *s = static_cast<Seen *>(arg);
            s->order.push_back("job " + std::to_string(j->job_id));
            return s->stop_at && static_cast<int>(s->order.size()) >= s->stop_at;
        };
        auto step_emit = [](void *arg, const drover_acct_step *st) -> int {
            auto *s = static_cast<Seen *>(arg);
            s->order.push_back("step " + std::to_string(st->job_id) + "." +
                               std::to_string(st->step_id));
            s->steps.push_back(*st);
            auto t = [](drover_str v) { return std::string(v.ptr, v.len); };
            s->texts.push_back({t(st->name), t(st->node_list), t(st->max_rss_node),
                                t(st->max_vsize_node), t(st->max_disk_read_node),
                                t(st->max_disk_write_node), t(st->tres_alloc)});
            return s->stop_at && static_cast<int>(s->order.size()) >= s->stop_at;
        };
        q.struct_size = sizeof q;
        drover_error err{};
        EXPECT_EQ(acct().ops.job_step_query(acct().state, &q, emit,
                                            with_steps ? +step_emit : nullptr, &seen, &err),
                  DROVER_OK)
            << err.text;
        return seen;
    }

    static drover_acct_query any() {
        drover_acct_query q{};
        q.user_id = DROVER_NO_VAL;
        return q;
    }

    // Jobs 1 (two steps and a batch step, ended), 2 (no steps, still running), 3 (one step,
    // another user's).
    void history() {
        job(1, 1000, 200);
        job(2, 1000, 0);
        job(3, 1001, 300);
        record(DROVER_ACCT_STEP_START, step(1, 1, false));
        record(DROVER_ACCT_STEP_START, step(1, DROVER_STEP_BATCH, false));
        record(DROVER_ACCT_STEP_START, step(1, 0, false));
        record(DROVER_ACCT_STEP_END, step(1, 0, true));
        record(DROVER_ACCT_STEP_END, step(1, 1, true));
        record(DROVER_ACCT_STEP_START, step(3, 0, false));
    }

    std::string cluster_ = "alpha", name_ = "sim", step_name_ = "hostname", nodes_ = "n[1-2]",
                node_a_ = "n1", node_b_ = "n2", tres_ = "cpu=16,mem=8G,node=2";
};

using Order = std::vector<std::string>;

TEST_P(AccountingSteps, EachJobIsFollowedByItsSteps) {
    history();
    const std::string batch = std::to_string(DROVER_STEP_BATCH);
    EXPECT_EQ(query(any()).order, (Order{"job 1", "step 1.0", "step 1.1", "step 1." + batch,
                                         "job 2", "job 3", "step 3.0"}));
    // Without step_emit, or through job_query, only jobs.
    EXPECT_EQ(query(any(), false).order, (Order{"job 1", "job 2", "job 3"}));
    Seen jobs_only;
    auto emit = [](void *arg, const drover_acct_job *j) -> int {
        static_cast<Seen *>(arg)->order.push_back("job " + std::to_string(j->job_id));
        return 0;
    };
    auto q = any();
    q.struct_size = sizeof q;
    drover_error err{};
    ASSERT_EQ(acct().ops.job_query(acct().state, &q, emit, &jobs_only, &err), DROVER_OK);
    EXPECT_EQ(jobs_only.order, (Order{"job 1", "job 2", "job 3"}));
}

TEST_P(AccountingSteps, AStepEventReplacesTheStepsRecordWhole) {
    history();
    auto q = any();
    const uint32_t one[] = {1};
    q.job_ids = one;
    q.job_id_count = 1;
    Seen seen = query(q);
    ASSERT_EQ(seen.steps.size(), 3u);
    const drover_acct_step &s = seen.steps[0]; // 1.0, started then ended
    const drover_acct_step want = step(1, 0, true);
    EXPECT_EQ(s.step_id, 0u);
    EXPECT_EQ(s.nodes, want.nodes);
    EXPECT_EQ(s.tasks, want.tasks);
    EXPECT_EQ(s.cpus, want.cpus);
    EXPECT_EQ(s.req_mem_mb, want.req_mem_mb);
    EXPECT_EQ(s.state, static_cast<uint32_t>(DROVER_JOB_FAILED));
    EXPECT_EQ(s.exit_status, 2 << 8);
    EXPECT_EQ(s.start_time, 120);
    EXPECT_EQ(s.end_time, 180);
    EXPECT_EQ(s.cancelled_by, static_cast<uint32_t>(DROVER_NO_VAL));
    EXPECT_EQ(s.max_rss_task, 3u);
    EXPECT_EQ(s.max_rss, want.max_rss);
    EXPECT_EQ(s.ave_rss, want.ave_rss);
    EXPECT_EQ(s.max_vsize, want.max_vsize);
    EXPECT_EQ(s.ave_vsize, want.ave_vsize);
    EXPECT_EQ(s.ave_cpu_usec, want.ave_cpu_usec);
    EXPECT_EQ(s.min_cpu_usec, want.min_cpu_usec);
    EXPECT_EQ(s.user_cpu_usec, want.user_cpu_usec);
    EXPECT_EQ(s.sys_cpu_usec, want.sys_cpu_usec);
    EXPECT_EQ(s.max_disk_read, want.max_disk_read);
    EXPECT_EQ(s.max_disk_write, want.max_disk_write);
    EXPECT_EQ(s.ave_disk_read, want.ave_disk_read);
    EXPECT_EQ(s.ave_disk_write, want.ave_disk_write);
    EXPECT_EQ(seen.texts[0], (std::vector<std::string>{"hostname", "n[1-2]", "n1", "n2", "n1", "n2",
                                                       "cpu=16,mem=8G,node=2"}));
    // The batch step was only started: its record says so.
    EXPECT_EQ(seen.steps[2].step_id, DROVER_STEP_BATCH);
    EXPECT_EQ(seen.steps[2].state, static_cast<uint32_t>(DROVER_JOB_RUNNING));
    EXPECT_EQ(seen.steps[2].end_time, 0);
}

// sacct's filters (ABI 1.5) are the store's: a job they refuse is not emitted, nor its steps.
TEST_P(AccountingSteps, SacctsFiltersApplyInTheStore) {
    history();
    auto q = any();
    const uint32_t other_user[] = {1001, 999};
    q.user_ids = other_user;
    q.user_id_count = 2;
    EXPECT_EQ(query(q).order, (Order{"job 3", "step 3.0"}));

    q = any();
    const uint32_t running[] = {DROVER_JOB_RUNNING};
    q.states = running;
    q.state_count = 1;
    EXPECT_EQ(query(q).order, (Order{"job 2"}));

    q = any();
    const std::string nope = "nope", other = "elsewhere"; // str() borrows: they must outlive q
    const drover_str names[] = {str(nope), str(name_)};
    q.names = names;
    q.name_count = 2;
    EXPECT_EQ(query(q, false).order, (Order{"job 1", "job 2", "job 3"}));
    q.name_count = 1;
    EXPECT_TRUE(query(q).order.empty());

    q = any();
    const drover_str elsewhere[] = {str(other)};
    q.accounts = elsewhere;
    q.account_count = 1;
    EXPECT_TRUE(query(q).order.empty());
    q = any();
    q.partitions = elsewhere;
    q.partition_count = 1;
    EXPECT_TRUE(query(q).order.empty());
}

// sacct -M and -N (ABI 1.7) are the store's too: the clusters named (none: every one), and the
// jobs whose node list the core's node_list_match says names one of the nodes.
TEST_P(AccountingSteps, ClusterAndNodeFiltersApplyInTheStore) {
    const std::string alpha = "alpha", beta = "beta", on_1_2 = "n1,n2", on_3 = "n3";
    auto ran = [&](uint32_t id, const std::string &cluster, const std::string &nodes) {
        drover_acct_job j{};
        j.struct_size = sizeof j;
        j.job_id = id;
        j.user_id = 1000;
        j.cluster = str(cluster);
        j.node_list = str(nodes);
        j.state = DROVER_JOB_COMPLETE;
        j.submit_time = 100;
        j.end_time = 200;
        drover_error err{};
        ASSERT_EQ(acct().ops.job_event(acct().state, DROVER_ACCT_JOB_END, &j, &err), DROVER_OK)
            << err.text;
    };
    ran(1, alpha, on_1_2);
    ran(2, beta, on_3);
    ran(3, alpha, on_3);
    ran(4, alpha, ""); // never ran
    record(DROVER_ACCT_STEP_START, step(1, 0, false));

    auto q = any();
    Order all = query(q, false).order; // postgres orders by cluster first, lmdb holds one
    std::sort(all.begin(), all.end());
    EXPECT_EQ(all, (Order{"job 1", "job 2", "job 3", "job 4"})) << "every cluster";
    const drover_str only_beta[] = {str(beta)};
    q.clusters = only_beta;
    q.cluster_count = 1;
    EXPECT_EQ(query(q, false).order, (Order{"job 2"}));

    // A test node_list_match: the node lists here are comma lists.
    q = any();
    q.node_list_match = [](const drover_acct_query *q, drover_str list) -> int {
        std::string l(list.ptr, list.len), node(q->nodes[0].ptr, q->nodes[0].len);
        return ("," + l + ",").find("," + node + ",") != std::string::npos;
    };
    const std::string n2 = "n2", n3 = "n3";
    const drover_str on_n2[] = {str(n2)}, on_n3[] = {str(n3)};
    q.nodes = on_n2;
    q.node_count = 1;
    EXPECT_EQ(query(q).order, (Order{"job 1", "step 1.0"}));
    q.nodes = on_n3;
    q.clusters = only_beta;
    q.cluster_count = 1;
    EXPECT_EQ(query(q).order, (Order{"job 2"}));
}

TEST_P(AccountingSteps, FiltersApplyToTheJobAndItsSteps) {
    history();
    auto q = any();
    q.user_id = 1001;
    EXPECT_EQ(query(q).order, (Order{"job 3", "step 3.0"}));
    q = any();
    const uint32_t ids[] = {3, 2};
    q.job_ids = ids;
    q.job_id_count = 2;
    EXPECT_EQ(query(q).order, (Order{"job 2", "job 3", "step 3.0"}));
    q = any();
    q.start_after = 250; // job 1 ended at 200: neither it nor its steps
    EXPECT_EQ(query(q).order, (Order{"job 2", "job 3", "step 3.0"}));
}

TEST_P(AccountingSteps, StopsWhenAStepCallbackAsks) {
    history();
    EXPECT_EQ(query(any(), true, 2).order, (Order{"job 1", "step 1.0"}));
}

TEST_P(AccountingSteps, StepsSurviveAReopen) {
    history();
    reopen();
    EXPECT_EQ(query(any()).steps.size(), 4u);
}

TEST_P(AccountingSteps, RefusesAnUnknownStepEvent) {
    drover_acct_step s = step(9, 0, true);
    drover_error err{};
    EXPECT_EQ(acct().ops.step_event(acct().state, DROVER_ACCT_JOB_END, &s, &err), DROVER_EINVAL);
    EXPECT_STREQ(err.text, "step 9.0: unknown accounting event 3");
}

TEST_P(AccountingSteps, AStepOfAJobWithoutARecordIsKeptUntilTheJobComes) {
    record(DROVER_ACCT_STEP_END, step(5, 0, true));
    EXPECT_EQ(query(any()).order, Order{});
    job(5, 1000, 200);
    EXPECT_EQ(query(any()).order, (Order{"job 5", "step 5.0"}));
}

TEST_P(AccountingSteps, ARequeuedJobsEarlierRunsAreKeptAndShownWithDuplicates) {
    constexpr uint32_t kRequeued = 0x400; // REQUEUED over PENDING, as the core records it
    job(7, 1000, 0, DROVER_ACCT_JOB_SUBMIT, DROVER_JOB_PENDING);
    job(7, 1000, 0, DROVER_ACCT_JOB_START, DROVER_JOB_RUNNING);
    record(DROVER_ACCT_STEP_END, step(7, DROVER_STEP_BATCH, true));
    job(7, 1000, 150, DROVER_ACCT_JOB_END, kRequeued);           // run 1 ends, requeued
    job(7, 1000, 0, DROVER_ACCT_JOB_SUBMIT, DROVER_JOB_PENDING); // run 2
    job(7, 1000, 0, DROVER_ACCT_JOB_START, DROVER_JOB_RUNNING);
    record(DROVER_ACCT_STEP_START, step(7, 0, false));
    job(7, 1000, 190, DROVER_ACCT_JOB_END, kRequeued);           // run 2 ends, requeued
    job(7, 1000, 0, DROVER_ACCT_JOB_SUBMIT, DROVER_JOB_PENDING); // run 3, pending
    job(8, 1000, 0, DROVER_ACCT_JOB_SUBMIT, DROVER_JOB_PENDING); // submitted once: not archived
    const std::string batch = std::to_string(DROVER_STEP_BATCH);
    // Without duplicates: the current run only, with no steps yet.
    EXPECT_EQ(query(any()).order, (Order{"job 7", "job 8"}));
    auto q = any();
    q.duplicates = 1;
    Seen all = query(q);
    EXPECT_EQ(all.order,
              (Order{"job 7", "step 7." + batch, "job 7", "step 7.0", "job 7", "job 8"}));
    const uint32_t seven[] = {7};
    q.job_ids = seven;
    q.job_id_count = 1;
    EXPECT_EQ(query(q).order, (Order{"job 7", "step 7." + batch, "job 7", "step 7.0", "job 7"}));
    // Each run is filtered on its own: run 1 ended at 150.
    q = any();
    q.duplicates = 1;
    q.start_after = 160;
    EXPECT_EQ(query(q).order, (Order{"job 7", "step 7.0", "job 7", "job 8"}));
}

TEST_P(AccountingSteps, EarlierRunsCarryTheirState) {
    job(7, 1000, 150, DROVER_ACCT_JOB_END, 0x400);
    job(7, 1000, 0, DROVER_ACCT_JOB_SUBMIT, DROVER_JOB_PENDING);
    struct States {
        std::vector<uint32_t> v;
    } states;
    auto emit = [](void *arg, const drover_acct_job *j) -> int {
        static_cast<States *>(arg)->v.push_back(j->state);
        return 0;
    };
    auto q = any();
    q.duplicates = 1;
    q.struct_size = sizeof q;
    drover_error err{};
    ASSERT_EQ(acct().ops.job_query(acct().state, &q, emit, &states, &err), DROVER_OK) << err.text;
    EXPECT_EQ(states.v, (std::vector<uint32_t>{0x400, DROVER_JOB_PENDING}));
}

INSTANTIATE_TEST_SUITE_P(Stores, AccountingSteps, ::testing::Values("lmdb", "postgres"),
                         [](const auto &info) { return info.param; });

} // namespace
} // namespace drover::plugin::test
