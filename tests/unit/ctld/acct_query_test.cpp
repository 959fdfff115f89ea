// acct_query_test.cpp - sacct's filters on the way to the store: a store built before ABI 1.7
// does not see them all, so the controller checks what it emits (a job of another account is
// dropped with its steps); a store of 1.7 or later applies them itself and its answer is taken as
// it is. The clusters a request names, and the node filter's hostlist match.
#include <gtest/gtest.h>

#include "ctld/acct/acct_query.hpp"
#include "plugin/cstr.hpp"

namespace drover::ctld {
namespace {

// The job ids (and step counts) of an answer built from a store that emits jobs 1 (account a,
// one step) and 2 (account b, one step) for a query asking for account a.
std::vector<std::pair<uint32_t, uint32_t>> answer(uint16_t store_abi_minor) {
    AcctFilters f;
    f.accounts = {"a"};
    drover_acct_query q{};
    q.struct_size = sizeof q;
    AcctFilterArgs args(f, q);
    AcctFilteredRows rows(q, store_abi_minor);
    const std::string acct_a = "a", acct_b = "b";
    for (uint32_t id : {1u, 2u}) {
        drover_acct_job j{};
        j.struct_size = sizeof j;
        j.job_id = id;
        j.account = plugin::cstr(id == 1 ? acct_a : acct_b);
        rows.job(j);
        drover_acct_step s{};
        s.struct_size = sizeof s;
        s.job_id = id;
        rows.step(s);
    }
    const auto bytes = rows.finish();
    const auto *r = flatbuffers::GetRoot<proto::Message>(bytes.data())->body_as_AcctQueryResponse();
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const auto *j : *r->jobs()) out.emplace_back(j->job_id(), j->steps()->size());
    return out;
}

TEST(AcctQuery, OlderStoresAnswerIsFilteredHere) {
    EXPECT_EQ(answer(4), (std::vector<std::pair<uint32_t, uint32_t>>{{1, 1}}));
    // A 1.5 store applies this filter but not 1.7's clusters and nodes: all are checked again.
    EXPECT_EQ(answer(6), (std::vector<std::pair<uint32_t, uint32_t>>{{1, 1}}));
}

TEST(AcctQuery, StoreThatAppliesTheFiltersIsTrusted) {
    // Job 2 stands for a store's own decision (its filter said yes): nothing is checked again.
    EXPECT_EQ(answer(7), (std::vector<std::pair<uint32_t, uint32_t>>{{1, 1}, {2, 1}}));
}

// The request's clusters: those it names, or ClusterName unless it asks for all (-L, -M all).
TEST(AcctQuery, ClustersDefaultToTheControllersOwn) {
    auto filters = [](std::vector<std::string> clusters, bool all) {
        flatbuffers::FlatBufferBuilder fbb;
        auto c = clusters.empty() ? 0 : fbb.CreateVectorOfStrings(clusters);
        proto::AcctQueryRequestBuilder b(fbb);
        if (!clusters.empty()) b.add_clusters(c);
        b.add_all_clusters(all);
        fbb.Finish(b.Finish());
        const auto *r = flatbuffers::GetRoot<proto::AcctQueryRequest>(fbb.GetBufferPointer());
        return acct_filters_from(*r, "home").clusters;
    };
    EXPECT_EQ(filters({}, false), std::vector<std::string>{"home"});
    EXPECT_TRUE(filters({}, true).empty());
    EXPECT_EQ(filters({"a", "b"}, false), (std::vector<std::string>{"a", "b"}));
}

// sacct -N: a job's node list, a hostlist expression, matches when it names one of the nodes.
TEST(AcctQuery, NodeListMatchExpandsTheJobsHostlist) {
    AcctFilters f;
    f.nodes = {"c7", "d2"};
    drover_acct_query q{};
    q.struct_size = sizeof q;
    AcctFilterArgs args(f, q);
    auto match = [&q](const std::string &list) {
        return q.node_list_match(&q, plugin::cstr(list));
    };
    EXPECT_EQ(match("c[1-8]"), 1);
    EXPECT_EQ(match("a1,d[1-3]"), 1);
    EXPECT_EQ(match("c[1-6,8]"), 0);
    EXPECT_EQ(match(""), 0);
    EXPECT_EQ(match("c[7"), 0) << "a node list that is not a hostlist names no node";
    drover_acct_job j{};
    j.struct_size = sizeof j;
    const std::string on = "c[6-7]";
    j.node_list = plugin::cstr(on);
    EXPECT_EQ(drover_acct_filters_match(&q, &j), 1);
    f.nodes = {"x1"};
    AcctFilterArgs other(f, q);
    EXPECT_EQ(drover_acct_filters_match(&q, &j), 0);
}

} // namespace
} // namespace drover::ctld
