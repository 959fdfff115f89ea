// accounting_lmdb_test.cpp - accounting/lmdb: events upsert records; queries filter, in id order.
#include <filesystem>
#include <memory>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace drover::plugin::test {
namespace {

// What a query returned, copied out of the borrowed records.
struct Row {
    uint32_t id, user, state, alloc_cpus;
    int64_t submit, start, end;
    std::string name, partition, node_list;
};

struct JobSpec {
    uint32_t id, user;
    int64_t submit;
    std::string name, partition;
};

class PluginAccountingLmdb : public ::testing::Test {
  protected:
    void SetUp() override {
        conf_.raw["accountingstorageloc"] = dir_ / "store/acct"; // created by the plugin
        reopen();
    }

    void reopen() {
        set_.reset();
        set_ = std::make_unique<PluginSet>(conf_, "ctld");
        set_->load("accounting/lmdb");
    }

    const Bound<drover_acct_ops> &acct() const { return set_->acct(); }

    void event(int ev, const JobSpec &s, uint32_t state, int64_t start = 0, int64_t end = 0,
               const std::string &nodes = "") {
        drover_acct_job j{};
        j.struct_size = sizeof j;
        j.job_id = s.id;
        j.user_id = s.user;
        j.group_id = 100;
        j.cluster = str(cluster_);
        j.name = str(s.name);
        j.partition = str(s.partition);
        j.node_list = str(nodes);
        j.alloc_cpus = start ? 8 : 0;
        j.state = state;
        j.time_limit_min = 60;
        j.submit_time = s.submit;
        j.start_time = start;
        j.end_time = end;
        drover_error err{};
        ASSERT_EQ(acct().ops.job_event(acct().state, ev, &j, &err), DROVER_OK) << err.text;
    }

    std::vector<Row> query(drover_acct_query q, int stop_after = 0) {
        struct Sink {
            std::vector<Row> rows;
            int stop_after;
        } sink{{}, stop_after};
        auto emit = [](void *arg, const drover_acct_job *j) -> int {
            auto *s = static_cast<Sink *>(arg);
            auto text = [](drover_str v) { return std::string(v.ptr, v.len); };
            s->rows.push_back(Row{j->job_id, j->user_id, j->state, j->alloc_cpus, j->submit_time,
                                  j->start_time, j->end_time, text(j->name), text(j->partition),
                                  text(j->node_list)});
            return s->stop_after && static_cast<int>(s->rows.size()) >= s->stop_after;
        };
        q.struct_size = sizeof q;
        drover_error err{};
        EXPECT_EQ(acct().ops.job_query(acct().state, &q, emit, &sink, &err), DROVER_OK) << err.text;
        return sink.rows;
    }

    // Stores j (of user 1000 on this cluster) as submitted.
    void submit(drover_acct_job j) {
        j.struct_size = sizeof j;
        j.user_id = 1000;
        j.cluster = str(cluster_);
        drover_error err{};
        EXPECT_EQ(acct().ops.job_event(acct().state, DROVER_ACCT_JOB_SUBMIT, &j, &err), DROVER_OK)
            << err.text;
    }

    // What line makes of each job q finds, in the order the store gives them.
    using Line = std::string (*)(const drover_acct_job &);
    std::string lines(drover_acct_query q, Line line) {
        struct Out {
            Line line;
            std::string text;
        } out{line, {}};
        auto emit = [](void *arg, const drover_acct_job *j) -> int {
            auto *o = static_cast<Out *>(arg);
            o->text += o->line(*j);
            return 0;
        };
        q.struct_size = sizeof q;
        drover_error err{};
        EXPECT_EQ(acct().ops.job_query(acct().state, &q, emit, &out, &err), DROVER_OK) << err.text;
        return out.text;
    }

    static drover_acct_query any() {
        drover_acct_query q{};
        q.user_id = DROVER_NO_VAL;
        return q;
    }

    static std::vector<uint32_t> ids(const std::vector<Row> &rows) {
        std::vector<uint32_t> out;
        for (const auto &r : rows) out.push_back(r.id);
        return out;
    }

    // Three jobs: 1 ran and ended, 2 is running, 3 is pending.
    void record_history() {
        event(DROVER_ACCT_JOB_SUBMIT, jobs_[2], DROVER_JOB_PENDING);
        event(DROVER_ACCT_JOB_SUBMIT, jobs_[0], DROVER_JOB_PENDING);
        event(DROVER_ACCT_JOB_SUBMIT, jobs_[1], DROVER_JOB_PENDING);
        event(DROVER_ACCT_JOB_START, jobs_[0], DROVER_JOB_RUNNING, 150, 0, "n[1-2]");
        event(DROVER_ACCT_JOB_START, jobs_[1], DROVER_JOB_RUNNING, 250, 0, "n3");
        event(DROVER_ACCT_JOB_END, jobs_[0], DROVER_JOB_COMPLETE, 150, 400, "n[1-2]");
    }

    TempDir dir_;
    Config conf_ = real_plugin_config();
    std::unique_ptr<PluginSet> set_;
    std::string cluster_ = "alpha";
    const std::vector<JobSpec> jobs_ = {{1, 1000, 100, "first", "batch"},
                                        {2, 1001, 200, "second", "debug"},
                                        {3, 1000, 300, "third", "batch"}};
};

using Ids = std::vector<uint32_t>;

TEST_F(PluginAccountingLmdb, KeepsTheLatestRecordOfEachJobInIdOrder) {
    record_history();
    auto rows = query(any());
    ASSERT_EQ(ids(rows), (Ids{1, 2, 3}));
    EXPECT_EQ(rows[0].state, static_cast<uint32_t>(DROVER_JOB_COMPLETE));
    EXPECT_EQ(rows[0].start, 150);
    EXPECT_EQ(rows[0].end, 400);
    EXPECT_EQ(rows[0].node_list, "n[1-2]");
    EXPECT_EQ(rows[0].alloc_cpus, 8u);
    EXPECT_EQ(rows[0].name, "first");
    EXPECT_EQ(rows[1].state, static_cast<uint32_t>(DROVER_JOB_RUNNING));
    EXPECT_EQ(rows[1].partition, "debug");
    EXPECT_EQ(rows[2].state, static_cast<uint32_t>(DROVER_JOB_PENDING));
    EXPECT_EQ(rows[2].node_list, "");
}

TEST_F(PluginAccountingLmdb, FiltersByJobIdsAndUser) {
    record_history();
    auto q = any();
    const uint32_t wanted[] = {3, 1, 99, 3};
    q.job_ids = wanted;
    q.job_id_count = 4;
    EXPECT_EQ(ids(query(q)), (Ids{1, 3}));
    q = any();
    q.user_id = 1000;
    EXPECT_EQ(ids(query(q)), (Ids{1, 3}));
    q.user_id = 0;
    EXPECT_EQ(ids(query(q)), Ids{});
}

TEST_F(PluginAccountingLmdb, FiltersByTimeWindow) {
    record_history();
    auto q = any();
    q.start_after = 500; // job 1 ended at 400; 2 and 3 have not ended
    EXPECT_EQ(ids(query(q)), (Ids{2, 3}));
    q.start_after = 400;
    EXPECT_EQ(ids(query(q)), (Ids{1, 2, 3}));
    q = any();
    q.end_before = 250; // submitted by then: 1 and 2
    EXPECT_EQ(ids(query(q)), (Ids{1, 2}));
    q.start_after = 401;
    EXPECT_EQ(ids(query(q)), (Ids{2}));
}

TEST_F(PluginAccountingLmdb, StopsWhenEmitAsks) {
    record_history();
    EXPECT_EQ(ids(query(any(), 2)), (Ids{1, 2}));
}

TEST_F(PluginAccountingLmdb, RecordsSurviveAReopen) {
    record_history();
    reopen();
    EXPECT_EQ(ids(query(any())), (Ids{1, 2, 3}));
    EXPECT_TRUE(std::filesystem::exists(dir_ / "store/acct/data.mdb"));
}

TEST_F(PluginAccountingLmdb, RefusesAnUnknownEvent) {
    drover_acct_job j{};
    j.struct_size = sizeof j;
    j.job_id = 9;
    drover_error err{};
    EXPECT_EQ(acct().ops.job_event(acct().state, 42, &j, &err), DROVER_EINVAL);
    EXPECT_STREQ(err.text, "job 9: unknown accounting event 42");
}

TEST_F(PluginAccountingLmdb, DefaultsToStateSaveLocation) {
    set_.reset();
    conf_.raw.erase("accountingstorageloc");
    conf_.raw["statesavelocation"] = dir_ / "state";
    reopen();
    event(DROVER_ACCT_JOB_SUBMIT, jobs_[0], DROVER_JOB_PENDING);
    EXPECT_TRUE(std::filesystem::exists(dir_ / "state/acct/data.mdb"));
    EXPECT_EQ(ids(query(any())), (Ids{1}));
}

// ABI 1.5's qos (record version 3) and 1.6's alloc_gres (version 4) are stored and given back.
TEST_F(PluginAccountingLmdb, KeepsTheQosAndGres) {
    const std::string qos = "high", gres = "gpu:2";
    drover_acct_job j{};
    j.job_id = 9;
    j.qos = str(qos);
    j.alloc_gres = str(gres);
    submit(j);
    reopen();
    EXPECT_EQ(lines(any(),
                    [](const drover_acct_job &r) {
                        auto text = [](drover_str s) {
                            return std::string(s.ptr ? s.ptr : "", s.len);
                        };
                        return text(r.qos) + "|" + text(r.alloc_gres);
                    }),
              "high|gpu:2");
}

// ABI 1.12's heterogeneous components (record version 5) are kept, and the leader's id finds
// them all, as sacct -j LEADER does.
TEST_F(PluginAccountingLmdb, LeaderIdFindsHeterogeneousComponents) {
    for (uint32_t k = 0; k < 3; ++k) {
        drover_acct_job j{};
        j.job_id = 20 + k;
        j.het_job_id = 20;
        j.het_job_offset = k;
        submit(j);
    }
    submit(drover_acct_job{.job_id = 23}); // the next job, not a component
    reopen();
    uint32_t leader = 20;
    drover_acct_query q = any();
    q.job_ids = &leader;
    q.job_id_count = 1;
    EXPECT_EQ(lines(q,
                    [](const drover_acct_job &r) {
                        return std::to_string(r.het_job_id) + "+" +
                               std::to_string(r.het_job_offset) + " ";
                    }),
              "20+0 20+1 20+2 ");
}

} // namespace
} // namespace drover::plugin::test
