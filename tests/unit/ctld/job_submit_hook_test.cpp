// job_submit_hook_test.cpp - a job's description through Slurm's job_desc names, as a
// job_submit plugin sees and changes it, against fake plugin tables: reads (nil, NO_VAL),
// writes, what may not be written, and how refusals and user messages reach the submitter.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "ctld/jobs/job_submit_hook.hpp"

namespace drover::ctld {
namespace {

const drover_job_submit_host *seen_host = nullptr;

// Reads and writes a few fields, as a site's job_submit.lua would.
int rewrite(void *, const drover_job_submit_host *host, drover_job_desc *d, uint32_t,
            drover_error *) {
    seen_host = host;
    uint32_t kind = 0;
    int64_t n = 0;
    drover_str s{};
    host->get(d, "partition", &kind, &n, &s);
    if (kind == DROVER_FIELD_NIL) host->set_text(d, "partition", "debug");
    host->get(d, "time_limit", &kind, &n, &s);
    if (kind == DROVER_FIELD_NUMBER && n == 0xfffffffe) host->set_number(d, "time_limit", 30);
    host->set_text(d, "comment", "checked");
    host->user_msg(d, "routed to debug");
    return DROVER_OK;
}

int refuse(void *, const drover_job_submit_host *host, drover_job_desc *d, uint32_t,
           drover_error *) {
    host->user_msg(d, "jobs need an account");
    return -1; // Lua's slurm.ERROR
}

int refuse_with_text(void *, const drover_job_submit_host *, drover_job_desc *, uint32_t,
                     drover_error *err) {
    std::snprintf(err->text, sizeof err->text, "job_submit/lua: script error");
    return DROVER_EINVAL;
}

plugin::Bound<drover_job_submit_ops> bound(decltype(drover_job_submit_ops::job_submit) fn) {
    plugin::Bound<drover_job_submit_ops> b;
    b.id = "job_submit/fake";
    b.ops.struct_size = sizeof b.ops;
    b.ops.job_submit = fn;
    return b;
}

TEST(JobSubmitHook, APluginReadsAndRewritesTheDescription) {
    auto b = bound(rewrite);
    proto::JobDescT d;
    d.account = "physics";
    std::string msg;
    ASSERT_TRUE(run_job_submit({b}, d, 1000, 1000, "alice", &msg).ok());
    EXPECT_EQ(d.partition, "debug");
    EXPECT_EQ(d.time_limit_min, 30u);
    EXPECT_EQ(d.comment, "checked");
    EXPECT_EQ(d.account, "physics");
    EXPECT_EQ(msg, "routed to debug");
}

TEST(JobSubmitHook, TheFieldsAreListedByName) {
    auto b = bound(rewrite);
    proto::JobDescT d;
    d.min_nodes = 2;
    ASSERT_TRUE(run_job_submit({b}, d, 1000, 100, "alice").ok());
    ASSERT_NE(seen_host, nullptr); // the core's table is static: its listing works outside a call
    std::vector<std::string> names = job_desc_field_names();
    EXPECT_NE(std::find(names.begin(), names.end(), "time_limit"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "user_id"), names.end());
    EXPECT_EQ(seen_host->field_count(), names.size());
    EXPECT_STREQ(seen_host->field_name(0), names[0].c_str());
    EXPECT_EQ(seen_host->field_name(uint32_t(names.size())), nullptr);
}

// Checks each read and write inside the call, where the description is valid.
int probe(void *, const drover_job_submit_host *h, drover_job_desc *d, uint32_t,
          drover_error *err) {
    uint32_t kind = 0;
    int64_t n = 0;
    drover_str s{};
    auto fail = [&](const char *what) {
        std::snprintf(err->text, sizeof err->text, "%s", what);
        return DROVER_EINVAL;
    };
    if (h->get(d, "min_nodes", &kind, &n, &s) != DROVER_OK || kind != DROVER_FIELD_NUMBER ||
        n != 0xfffffffe)
        return fail("an unset count reads NO_VAL");
    if (h->get(d, "user_id", &kind, &n, &s) != DROVER_OK || n != 1000) return fail("user_id");
    if (h->get(d, "group_id", &kind, &n, &s) != DROVER_OK || n != 100) return fail("group_id");
    if (h->get(d, "user_name", &kind, &n, &s) != DROVER_OK || kind != DROVER_FIELD_STRING ||
        std::string(s.ptr, s.len) != "alice")
        return fail("user_name");
    if (h->get(d, "comment", &kind, &n, &s) != DROVER_OK || kind != DROVER_FIELD_NIL)
        return fail("an empty string reads nil");
    if (h->get(d, "bogus", &kind, &n, &s) != DROVER_ENOENT) return fail("unknown field");
    if (h->set_number(d, "user_id", 0) != DROVER_EPERM) return fail("user_id is read only");
    if (h->set_text(d, "script", "rm -rf") != DROVER_EPERM) return fail("script is read only");
    if (h->set_text(d, "min_nodes", "2") != DROVER_EINVAL) return fail("a count takes a number");
    if (h->set_number(d, "partition", 2) != DROVER_EINVAL) return fail("a name takes text");
    if (h->set_number(d, "min_nodes", 4) != DROVER_OK) return fail("set min_nodes");
    if (h->set_number(d, "nice", -5) != DROVER_OK) return fail("set nice");
    return DROVER_OK;
}

TEST(JobSubmitHook, ReadOnlyAndTypedFieldsAreEnforced) {
    auto b = bound(probe);
    proto::JobDescT d;
    Status s = run_job_submit({b}, d, 1000, 100, "alice");
    ASSERT_TRUE(s.ok()) << s.text();
    EXPECT_EQ(d.min_nodes, 4u);
    EXPECT_EQ(d.nice, -5);
}

TEST(JobSubmitHook, ARefusalCarriesThePluginsWordsElseTheUserMessage) {
    proto::JobDescT d;
    auto quiet = bound(refuse);
    Status s = run_job_submit({quiet}, d, 1000, 100, "alice");
    EXPECT_EQ(s.code(), DROVER_EINVAL);
    EXPECT_EQ(s.text(), "jobs need an account");
    auto worded = bound(refuse_with_text);
    EXPECT_EQ(run_job_submit({worded}, d, 1000, 100, "alice").text(),
              "job_submit/lua: script error");
    auto ok = bound(rewrite);
    // Plugins run in order: the second is not asked once the first refuses.
    proto::JobDescT e;
    EXPECT_FALSE(run_job_submit({quiet, ok}, e, 1000, 100, "alice").ok());
    EXPECT_EQ(e.comment, "");
    auto silent = bound([](void *, const drover_job_submit_host *, drover_job_desc *, uint32_t,
                           drover_error *) { return -1; });
    EXPECT_EQ(run_job_submit({silent}, d, 1000, 100, "alice").text(), "Unspecified error");
}

// A site's slurm_job_modify: no more than an hour; a new name is noted in the comment.
int modify(void *, const drover_job_submit_host *h, drover_job_desc *d, uint32_t, uint32_t,
           drover_error *) {
    uint32_t kind = 0;
    int64_t n = 0;
    drover_str s{};
    h->get(d, "time_limit", &kind, &n, &s);
    if (n != 0xfffffffe && n > 60) {
        h->user_msg(d, "no more than an hour");
        return -1;
    }
    h->get(d, "name", &kind, &n, &s);
    if (kind == DROVER_FIELD_STRING)
        h->set_text(d, "comment", ("renamed to " + std::string(s.ptr, s.len)).c_str());
    return DROVER_OK;
}

TEST(JobSubmitHook, UpdatesPassThroughJobModify) {
    auto b = bound(rewrite);
    b.ops.job_modify = modify;
    UpdateFields too_long{{"TimeLimit", "1:30:00"}};
    Status s = run_job_modify({b}, too_long, 7, 0, 0, "root");
    EXPECT_EQ(s.text(), "no more than an hour");
    UpdateFields rename{{"JobName", "x"}, {"Priority", "5"}};
    ASSERT_TRUE(run_job_modify({b}, rename, 7, 0, 0, "root").ok());
    EXPECT_EQ(rename,
              (UpdateFields{{"JobName", "x"}, {"Priority", "5"}, {"comment", "renamed to x"}}));
    UpdateFields none{{"TimeLimit", "30"}};
    ASSERT_TRUE(run_job_modify({}, none, 7, 0, 0, "root").ok()); // no plugin: as it was
    ASSERT_TRUE(run_job_modify({b}, none, 7, 0, 0, "root").ok());
    EXPECT_EQ(none, (UpdateFields{{"TimeLimit", "30"}})); // unchanged values stay as written
}

} // namespace
} // namespace drover::ctld
