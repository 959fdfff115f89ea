// accounting_assocs_test.cpp - sacctmgr's records in both stores (accounting/lmdb, and
// accounting/postgres against a server the test starts): assoc_update puts and removes all at
// once, assoc_list streams every record with every member (the settings text of ABI 1.8 too),
// records survive a reopen.
#include <memory>

#include <gtest/gtest.h>

#include "store_fixture.hpp"

namespace drover::plugin::test {
namespace {

struct Rec {
    uint32_t kind = 0, level = 0;
    std::string name, cluster, account, user, partition, parent, description, organization, def,
        attrs;
    bool operator==(const Rec &) const = default;
    drover_acct_assoc view() const {
        return {.struct_size = sizeof(drover_acct_assoc),
                .kind = kind,
                .name = str(name),
                .cluster = str(cluster),
                .account = str(account),
                .user = str(user),
                .partition = str(partition),
                .parent = str(parent),
                .description = str(description),
                .organization = str(organization),
                .default_account = str(def),
                .admin_level = level,
                .attrs = str(attrs)};
    }
};

std::ostream &operator<<(std::ostream &o, const Rec &r) {
    return o << r.kind << ":" << r.name << "/" << r.cluster << "/" << r.account << "/" << r.user
             << "/" << r.partition << " parent=" << r.parent << " descr=" << r.description
             << " org=" << r.organization << " def=" << r.def << " level=" << r.level
             << " attrs=" << r.attrs;
}

class AccountingAssocs : public StoreTest {
  protected:
    int update(const std::vector<Rec> &puts, const std::vector<Rec> &removes,
               std::string *why = nullptr) {
        std::vector<drover_acct_assoc> pv, rv;
        for (const auto &r : puts) pv.push_back(r.view());
        for (const auto &r : removes) rv.push_back(r.view());
        std::vector<const drover_acct_assoc *> pp, rp;
        for (const auto &v : pv) pp.push_back(&v);
        for (const auto &v : rv) rp.push_back(&v);
        drover_error err{};
        const auto &a = set_->acct();
        int rc = a.ops.assoc_update(a.state, pp.data(), uint32_t(pp.size()), rp.data(),
                                    uint32_t(rp.size()), &err);
        if (why) *why = err.text;
        return rc;
    }

    std::vector<Rec> list() {
        std::vector<Rec> out;
        auto emit = [](void *arg, const drover_acct_assoc *a) -> int {
            auto t = [](drover_str s) { return std::string(s.ptr, s.len); };
            static_cast<std::vector<Rec> *>(arg)->push_back(
                Rec{a->kind, a->admin_level, t(a->name), t(a->cluster), t(a->account), t(a->user),
                    t(a->partition), t(a->parent), t(a->description), t(a->organization),
                    t(a->default_account), t(a->attrs)});
            return 0;
        };
        drover_error err{};
        const auto &a = set_->acct();
        EXPECT_EQ(a.ops.assoc_list(a.state, emit, &out, &err), DROVER_OK) << err.text;
        std::sort(out.begin(), out.end(), [](const Rec &x, const Rec &y) {
            return std::tie(x.kind, x.name, x.cluster, x.account, x.user, x.partition) <
                   std::tie(y.kind, y.name, y.cluster, y.account, y.user, y.partition);
        });
        return out;
    }

    const Rec cluster_{DROVER_ACCT_CLUSTER, 0, "local"};
    const Rec account_{DROVER_ACCT_ACCOUNT, 0,    "physics", "", "", "", "", "",
                       "Physics dept",      "sci"};
    const Rec user_{DROVER_ACCT_USER, DROVER_ADMIN_OPERATOR, "alice", "", "", "", "", "", "", "",
                    "physics"};
    const Rec assoc_{DROVER_ACCT_ASSOC, 0, "", "local", "physics", "", "", "root"};
    const Rec user_assoc_{DROVER_ACCT_ASSOC,
                          0,
                          "",
                          "local",
                          "physics",
                          "alice",
                          "gpu",
                          "physics",
                          "",
                          "",
                          "",
                          "maxjobs=2;qos=high,normal"};
    const Rec qos_{DROVER_ACCT_QOS,
                   0,
                   "high",
                   "",
                   "",
                   "",
                   "",
                   "",
                   "High priority",
                   "",
                   "",
                   "flags=DenyOnLimit;priority=10"};
};

using Recs = std::vector<Rec>;

TEST_P(AccountingAssocs, PutsAndListsEveryMember) {
    ASSERT_EQ(update({user_assoc_, assoc_, user_, account_, cluster_, qos_}, {}), DROVER_OK);
    EXPECT_EQ(list(), (Recs{cluster_, account_, user_, assoc_, user_assoc_, qos_}));
}

TEST_P(AccountingAssocs, APutReplacesByKeyAndRemovesGoFirst) {
    ASSERT_EQ(update({cluster_, account_, user_, assoc_, user_assoc_}, {}), DROVER_OK);
    Rec changed = user_;
    changed.def = "chem";
    changed.level = DROVER_ADMIN_ADMINISTRATOR;
    Rec other_part = user_assoc_;
    other_part.partition = "debug";
    ASSERT_EQ(update({changed, other_part}, {user_assoc_, account_}), DROVER_OK);
    EXPECT_EQ(list(), (Recs{cluster_, changed, assoc_, other_part}));
    // Removing what is not there is no error.
    ASSERT_EQ(update({}, {user_assoc_}), DROVER_OK);
}

TEST_P(AccountingAssocs, RecordsSurviveAReopen) {
    ASSERT_EQ(update({cluster_, account_, user_, qos_}, {}), DROVER_OK);
    reopen();
    EXPECT_EQ(list(), (Recs{cluster_, account_, user_, qos_}));
}

INSTANTIATE_TEST_SUITE_P(Stores, AccountingAssocs, ::testing::Values("lmdb", "postgres"),
                         [](const auto &info) { return info.param; });

} // namespace
} // namespace drover::plugin::test
