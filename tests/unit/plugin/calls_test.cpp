// calls_test.cpp - the typed plugin wrappers over fake operations tables of local functions (no
// plugin file): the NULL policy, struct_size, the Status text and the view conversions.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "plugin/acct_calls.hpp"
#include "plugin/auth_calls.hpp"
#include "plugin/proctrack_calls.hpp"
#include "plugin/sched_calls.hpp"
#include "plugin/select_calls.hpp"
#include "plugin/switch_calls.hpp"

namespace drover::plugin {
namespace {

// What the fake functions saw; reset by each test's Fake.
struct Seen {
    int calls = 0;
    uint32_t struct_size = 0;
    std::vector<uint64_t> words;
    uint32_t nbits = 0;
    std::string text;
};
Seen seen;

template <class Ops>
Bound<Ops> fake(const char *id, Ops ops) {
    seen = {};
    Bound<Ops> b;
    ops.struct_size = sizeof ops;
    b.ops = ops;
    b.id = id;
    return b;
}

int refuse(drover_error *err, const char *why, int rc) {
    std::snprintf(err->text, sizeof err->text, "%s", why);
    return rc;
}

TEST(PluginCalls, NoPluginAnswersEachOpsDefault) {
    SelectCalls sel; // what an empty PluginSet slot hands out
    drover_job_view v{};
    Bitmap nodes(4), picked;
    EXPECT_FALSE(sel);
    EXPECT_EQ(sel.job_begin(v, nodes).code(), DROVER_ENOENT);
    EXPECT_EQ(sel.job_begin(v, nodes).text(), "no plugin job_begin: not provided");
    EXPECT_EQ(sel.job_test(v, nodes, DROVER_SELECT_RUN_NOW, &picked).code(), DROVER_ENOENT);
    EXPECT_EQ(picked.size(), 4u);
    EXPECT_TRUE(sel.job_fini(v).ok());
    EXPECT_EQ(sel.cpus_on_node(1, 0, 16), 16u);
    EXPECT_FALSE(sel.alloc_detail(1, 0));

    AcctCalls acct;
    EXPECT_TRUE(acct.job_event(DROVER_ACCT_JOB_START, {}).ok()); // no store: nothing owed
    EXPECT_TRUE(acct.step_event(DROVER_ACCT_STEP_END, {}).ok());
    EXPECT_TRUE(acct.node_event({}).ok());
    EXPECT_FALSE(acct.answers_job_query(true));
    EXPECT_FALSE(acct.keeps_assocs());
    EXPECT_EQ(acct.assoc_list([](const drover_acct_assoc &) {}).code(), DROVER_ENOENT);

    SchedCalls sched;
    EXPECT_FALSE(sched.job_priority(v));
    EXPECT_FALSE(sched.stats(false));

    SwitchCalls sw;
    EXPECT_TRUE(sw.job_init(1, "n1", [](std::string_view, std::string_view) {}).ok());
    EXPECT_TRUE(sw.job_fini(1).ok());

    ProctrackCalls pt;
    EXPECT_TRUE(pt.cont_destroy(1).ok());
    EXPECT_TRUE(pt.cont_limit(1, 1 << 20, "0-3", "/dev/nvidia1").ok());
    EXPECT_FALSE(pt.cont_usage(1));
    EXPECT_EQ(pt.cont_signal(1, 9).code(), DROVER_ENOENT);
}

TEST(PluginCalls, FailureNamesPluginAndOp) {
    drover_select_ops ops{};
    ops.job_begin = [](void *, const drover_job_view *, drover_bitmap_view, drover_error *err) {
        return refuse(err, "node n3 is already full", DROVER_EBUSY);
    };
    ops.job_fini = [](void *, const drover_job_view *, drover_error *) { return DROVER_EIO; };
    auto b = fake("select/cons_tres", ops);
    SelectCalls sel = b;
    drover_job_view v{};
    Status s = sel.job_begin(v, Bitmap(8));
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.code(), DROVER_EBUSY);
    EXPECT_EQ(s.text(), "select/cons_tres job_begin: node n3 is already full");
    // A plugin that wrote no line: the code's name stands in.
    EXPECT_EQ(sel.job_fini(v).text(), "select/cons_tres job_fini: failed (EIO)");
}

TEST(PluginCalls, EachCallIsTimedByOp) {
    drover_select_ops ops{};
    ops.job_begin = [](void *, const drover_job_view *, drover_bitmap_view, drover_error *) {
        return DROVER_OK;
    };
    auto b = fake("select/linear", ops);
    SelectCalls sel = b;
    drover_job_view v{};
    (void)sel.job_begin(v, Bitmap(8));
    (void)sel.job_begin(v, Bitmap(8));
    (void)sel.job_fini(v); // not provided: not called, not counted
    auto ops_seen = b.timings->snapshot();
    ASSERT_EQ(ops_seen.size(), 1u);
    EXPECT_EQ(ops_seen.at("job_begin").calls, 2u);
    EXPECT_GE(ops_seen.at("job_begin").usec_sum, ops_seen.at("job_begin").usec_max);
}

TEST(PluginCalls, SelectConvertsBitmapsBothWays) {
    drover_select_ops ops{};
    ops.job_test = [](void *, const drover_job_view *, drover_bitmap_view usable, int mode,
                      drover_bitmap *picked, drover_error *) {
        seen.words.assign(usable.words, usable.words + (usable.nbits + 63) / 64);
        seen.nbits = usable.nbits;
        for (uint32_t i = 0; i < usable.nbits; ++i)
            if ((usable.words[i / 64] >> (i % 64)) & 1) picked->words[i / 64] |= 1ull << (i % 64);
        return mode == DROVER_SELECT_RUN_NOW ? DROVER_OK : DROVER_ENOSPC;
    };
    auto b = fake("select/linear", ops);
    SelectCalls sel = b;
    Bitmap usable(70), picked(3);
    picked.set(1); // cleared and resized by the wrapper
    usable.set(2);
    usable.set(69);
    drover_job_view v{};
    ASSERT_TRUE(sel.job_test(v, usable, DROVER_SELECT_RUN_NOW, &picked).ok());
    EXPECT_EQ(seen.nbits, 70u);
    EXPECT_EQ(seen.words.size(), 2u);
    EXPECT_EQ(picked.size(), 70u);
    EXPECT_EQ(picked, usable);
    EXPECT_EQ(sel.job_test(v, usable, DROVER_SELECT_TEST_ONLY, &picked).code(), DROVER_ENOSPC);
}

TEST(PluginCalls, StructSizeIsFilledForThePlugin) {
    drover_select_ops ops{};
    ops.job_alloc_detail = [](void *, uint32_t, uint32_t node, drover_node_alloc *out) {
        seen.struct_size = out->struct_size;
        if (node != 0) return DROVER_ENOENT;
        out->cpus = 3;
        std::strcpy(out->cpu_ids, "0-2");
        return DROVER_OK;
    };
    auto b = fake("select/cons_tres", ops);
    SelectCalls sel = b;
    auto a = sel.alloc_detail(7, 0);
    ASSERT_TRUE(a);
    EXPECT_EQ(seen.struct_size, sizeof(drover_node_alloc));
    EXPECT_EQ(a->cpus, 3u);
    EXPECT_STREQ(a->cpu_ids, "0-2");
    EXPECT_FALSE(sel.alloc_detail(7, 1));       // tells nothing there
    EXPECT_EQ(sel.cpus_on_node(7, 0, 16), 16u); // job_cpus_on_node absent: the whole node

    drover_acct_ops acct_ops{};
    acct_ops.job_event = [](void *, int, const drover_acct_job *j, drover_error *) {
        seen.struct_size = j->struct_size;
        return DROVER_OK;
    };
    auto ab = fake("accounting/fake", acct_ops);
    drover_acct_job j{}; // struct_size left 0 by the caller
    EXPECT_TRUE(AcctCalls(ab).job_event(DROVER_ACCT_JOB_SUBMIT, j).ok());
    EXPECT_EQ(seen.struct_size, sizeof(drover_acct_job));
}

TEST(PluginCalls, AcctStreamsRowsToTypedCallbacks) {
    drover_acct_ops ops{};
    ops.job_query = [](void *, const drover_acct_query *, drover_acct_emit_fn emit, void *arg,
                       drover_error *) {
        drover_acct_job j{};
        for (uint32_t id : {4u, 5u}) {
            j.job_id = id;
            emit(arg, &j);
        }
        return DROVER_OK;
    };
    ops.job_step_query = [](void *, const drover_acct_query *, drover_acct_emit_fn emit,
                            drover_acct_step_emit_fn step_emit, void *arg, drover_error *) {
        drover_acct_job j{};
        j.job_id = 9;
        emit(arg, &j);
        drover_acct_step s{};
        s.job_id = 9;
        s.step_id = 0;
        step_emit(arg, &s);
        return DROVER_OK;
    };
    auto b = fake("accounting/fake", ops);
    AcctCalls acct = b;
    std::vector<std::string> rows;
    auto on_job = [&](const drover_acct_job &j) { rows.push_back(std::to_string(j.job_id)); };
    auto on_step = [&](const drover_acct_step &s) {
        rows.push_back(std::to_string(s.job_id) + "." + std::to_string(s.step_id));
    };
    ASSERT_TRUE(acct.job_query({}, true, on_job, on_step).ok());
    EXPECT_EQ(rows, (std::vector<std::string>{"9", "9.0"}));
    rows.clear();
    ASSERT_TRUE(acct.job_query({}, false, on_job, on_step).ok()); // sacct -X: jobs only
    EXPECT_EQ(rows, (std::vector<std::string>{"4", "5"}));
}

TEST(PluginCalls, AuthAndProctrackBuffers) {
    drover_auth_ops aops{};
    aops.cred_create = [](void *, uint32_t uid, uint32_t, const uint8_t *, uint8_t *cred,
                          uint32_t *len, drover_error *) {
        seen.nbits = *len; // the capacity it was given
        cred[0] = uint8_t(uid);
        *len = 1;
        return DROVER_OK;
    };
    aops.cred_verify = [](void *, const uint8_t *, uint32_t, const uint8_t *, uint32_t *,
                          uint32_t *, drover_error *err) {
        return refuse(err, "credential expired", DROVER_EPERM);
    };
    auto ab = fake("auth/fake", aops);
    AuthCalls auth = ab;
    uint8_t hash[32] = {};
    std::vector<uint8_t> cred;
    ASSERT_TRUE(auth.cred_create(7, 7, hash, &cred).ok());
    EXPECT_EQ(seen.nbits, uint32_t(DROVER_AUTH_CRED_MAX));
    EXPECT_EQ(cred, std::vector<uint8_t>{7});
    uint32_t uid = 0, gid = 0;
    EXPECT_EQ(auth.cred_verify(cred, hash, &uid, &gid).text(),
              "auth/fake cred_verify: credential expired");

    drover_proctrack_ops pops{};
    pops.cont_pids = [](void *, drover_cont_id, int32_t *pids, uint32_t *count, drover_error *) {
        pids[0] = 100;
        pids[1] = 101;
        *count = 2;
        return DROVER_OK;
    };
    pops.cont_limit = [](void *, drover_cont_id, const drover_cont_limits *l, drover_error *) {
        seen.struct_size = l->struct_size;
        seen.words = {l->mem_bytes};
        seen.text.assign(l->deny_devices.ptr, l->deny_devices.len);
        return DROVER_OK;
    };
    auto pb = fake("proctrack/fake", pops);
    ProctrackCalls pt = pb;
    std::vector<int32_t> pids;
    ASSERT_TRUE(pt.cont_pids(1, 16, &pids).ok());
    EXPECT_EQ(pids, (std::vector<int32_t>{100, 101}));
    ASSERT_TRUE(pt.cont_limit(1, 1 << 20, "0-1", "/dev/nvidia1,/dev/nvidia3").ok());
    EXPECT_EQ(seen.struct_size, sizeof(drover_cont_limits));
    EXPECT_EQ(seen.words, std::vector<uint64_t>{1 << 20});
    EXPECT_EQ(seen.text, "/dev/nvidia1,/dev/nvidia3");
}

TEST(PluginCalls, SwitchEnvironmentReachesTheCallback) {
    drover_switch_ops ops{};
    ops.job_init = [](void *, uint32_t, drover_str nodes, drover_env_add_fn add, void *arg,
                      drover_error *) {
        add(arg, {"SW_NODES", 8}, nodes);
        return DROVER_OK;
    };
    auto b = fake("switch/fake", ops);
    std::string env;
    ASSERT_TRUE(SwitchCalls(b)
                    .job_init(3, "n[1-2]",
                              [&](std::string_view k, std::string_view v) {
                                  env = std::string(k) + "=" + std::string(v);
                              })
                    .ok());
    EXPECT_EQ(env, "SW_NODES=n[1-2]");
}

} // namespace
} // namespace drover::plugin
