// acct_codec_test.cpp - a job's, a step's and a node event's accounting record reach the plugin
// ABI's struct and come back from it (a query's answer) with every field, and a plugin older than
// a field leaves it empty (members past its struct_size are not read).
#include <gtest/gtest.h>

#include <drover/proctrack.h>

#include <cstddef>

#include "ctld/acct/acct_codec.hpp"
#include "ctld/acct/acct_records.hpp"

namespace drover::ctld {
namespace {

AcctRecord sample_job() {
    AcctRecord r;
    r.job_id = 7, r.user_id = 1000, r.group_id = 100;
    r.cluster = "c1", r.name = "train", r.partition = "gpu", r.account = "physics";
    r.node_list = "n[1-2]", r.work_dir = "/home/u";
    r.alloc_nodes = 2, r.alloc_cpus = 8, r.req_cpus = 6, r.req_mem_mb = 4096;
    r.state = DROVER_JOB_COMPLETE, r.exit_status = 3 << 8, r.time_limit_min = 90;
    r.submit_time = 100, r.eligible_time = 101, r.start_time = 102, r.end_time = 200;
    r.cancelled_by = 0, r.array_job_id = 6, r.array_task_id = 1;
    r.comment = "a comment", r.qos = "high", r.alloc_gres = "gpu:2";
    r.het_job_id = 5, r.het_job_offset = 2;
    return r;
}

TEST(AcctCodec, JobRecordGoesToThePluginAndBackWhole) {
    const AcctRecord r = sample_job();
    const drover_acct_job v = acct_codec::job_view(r);
    EXPECT_EQ(v.struct_size, sizeof v);
    EXPECT_EQ(std::string(v.qos.ptr, v.qos.len), "high");
    const AcctRecord back = acct_codec::job_from(v);
    int compared = 0;
    acct_codec::JobPairs::each([&](auto p) {
        EXPECT_EQ(back.*(decltype(p)::rec), r.*(decltype(p)::rec)) << "field " << compared;
        ++compared;
    });
    EXPECT_EQ(compared, 28);
}

TEST(AcctCodec, FieldsPastAnOlderPluginsStructAreEmpty) {
    const AcctRecord r = sample_job();
    drover_acct_job v = acct_codec::job_view(r);
    v.struct_size = uint32_t(offsetof(drover_acct_job, comment)); // before comment (ABI 1.1)
    const AcctRecord back = acct_codec::job_from(v);
    EXPECT_EQ(back.job_id, 7u);
    EXPECT_EQ(back.cancelled_by, 0u);
    EXPECT_EQ(back.comment, "");
    EXPECT_EQ(back.qos, "");
    EXPECT_EQ(back.alloc_gres, "");
    EXPECT_EQ(back.array_task_id, uint32_t(DROVER_NO_VAL)); // it wrote no task id
    EXPECT_EQ(back.het_job_id, 0u);                         // nor a component
    EXPECT_EQ(back.het_job_offset, uint32_t(DROVER_NO_VAL));
}

TEST(AcctCodec, StepAndNodeEventGoToThePluginAndBack) {
    AcctStepRecord s;
    s.job_id = 7, s.step_id = DROVER_STEP_BATCH, s.name = "batch", s.node_list = "n1";
    s.max_rss = 1 << 20, s.max_rss_node = "n1", s.tres_alloc = "cpu=4,mem=1G,node=1";
    s.ave_disk_write = 55, s.min_cpu_usec = 9;
    const AcctStepRecord sb = acct_codec::step_from(acct_codec::step_view(s));
    EXPECT_EQ(sb.step_id, s.step_id);
    EXPECT_EQ(sb.max_rss_node, "n1");
    EXPECT_EQ(sb.tres_alloc, s.tres_alloc);
    EXPECT_EQ(sb.ave_disk_write, 55u);
    EXPECT_EQ(sb.min_cpu_usec, 9u);

    AcctNodeEvent e;
    e.node_name = "n3", e.state = DROVER_NODE_DOWN, e.reason = "Not responding";
    e.reason_uid = 0, e.start_time = 5, e.end_time = 9;
    const AcctNodeEvent eb = acct_codec::node_event_from(acct_codec::node_event_view(e));
    EXPECT_EQ(eb.node_name, "n3");
    EXPECT_EQ(eb.reason, "Not responding");
    EXPECT_EQ(eb.reason_uid, 0u);
    EXPECT_EQ(eb.end_time, 9);
}

TEST(AcctCodec, SpooledJobRecordDecodesWhole) {
    const AcctRecord r = sample_job();
    const auto bytes = encode_acct(DROVER_ACCT_JOB_END, r);
    int event = 0;
    AcctPayload back;
    ASSERT_TRUE(decode_acct(bytes.data(), bytes.size(), &event, &back));
    EXPECT_EQ(event, DROVER_ACCT_JOB_END);
    const auto &j = std::get<AcctRecord>(back);
    EXPECT_EQ(j.qos, "high");
    EXPECT_EQ(j.comment, "a comment");
    EXPECT_EQ(j.array_task_id, 1u);
    EXPECT_EQ(j.exit_status, 3 << 8);
}

} // namespace
} // namespace drover::ctld
