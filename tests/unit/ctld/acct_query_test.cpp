// acct_query_test.cpp - sacct's filters on the way to the store: a store built before ABI 1.5
// does not see them, so the controller checks what it emits (a job of another account is dropped
// with its steps); a store of 1.5 or later applies them itself and its answer is taken as it is.
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
}

TEST(AcctQuery, StoreThatAppliesTheFiltersIsTrusted) {
    // Job 2 stands for a store's own decision (its filter said yes): nothing is checked again.
    EXPECT_EQ(answer(5), (std::vector<std::pair<uint32_t, uint32_t>>{{1, 1}, {2, 1}}));
}

} // namespace
} // namespace drover::ctld
