// acct_admin_test.cpp - sacctmgr's add, modify, delete and show planned against the controller's
// copy of the associations; the job checks (default account, AccountingStorageEnforce);
// federations (ids, membership, refusals), a cluster's view of its federation, and the records
// the commands' -M reads.
#include <gtest/gtest.h>

#include "ctld/acct/acct_admin.hpp"
#include "ctld/fed/federation.hpp"

using namespace drover::ctld;

namespace {

const LocalCluster kLocal{"local", "head", 6817};

class AcctAdminPlan : public ::testing::Test {
  protected:
    // Plans and applies; returns the plan.
    AdminPlan run(std::string verb, std::string entity, AdminFields set, AdminFields where = {}) {
        AdminPlan p = plan_admin(
            db_, {std::move(verb), std::move(entity), std::move(set), std::move(where)}, kLocal);
        db_.apply(p.change);
        return p;
    }
    std::vector<std::string> show(std::string entity, AdminFields where = {},
                                  const char *key = "user") {
        AdminPlan p = run("show", std::move(entity), {}, std::move(where));
        std::vector<std::string> out;
        for (const auto &row : p.rows) {
            std::string line;
            for (const auto &[k, v] : row)
                if (k == "cluster" || k == "account" || k == "user" || k == "parentname" ||
                    k == key)
                    line += (line.empty() ? "" : "|") + v;
            out.push_back(line);
        }
        return out;
    }
    void physics() {
        run("add", "cluster", {{"name", "local"}});
        run("add", "account",
            {{"name", "physics"}, {"description", "Physics"}, {"organization", "Sci"}});
        run("add", "user", {{"name", "alice"}, {"account", "physics"}});
    }
    AssocDb db_;
};

using Lines = std::vector<std::string>;

TEST_F(AcctAdminPlan, AClusterStartsWithRootAndItsUser) {
    AdminPlan p = run("add", "cluster", {{"name", "Local"}});
    EXPECT_EQ(p.message, " Adding Cluster(s)\n  Name           = local\n");
    EXPECT_EQ(show("association"), (Lines{"local|root||", "local|root|root|"}));
    const AssocRec *root = db_.user("root");
    ASSERT_TRUE(root);
    EXPECT_EQ(root->default_account, "root");
    EXPECT_EQ(root->admin_level, uint32_t(DROVER_ADMIN_ADMINISTRATOR));
    p = run("add", "cluster", {{"name", "local"}});
    EXPECT_TRUE(p.change.empty());
    EXPECT_EQ(p.message, " This cluster local already exists.  Not adding.\n");
}

TEST_F(AcctAdminPlan, AccountsNeedAClusterAndAParent) {
    AdminPlan p = run("add", "account", {{"name", "physics"}});
    EXPECT_EQ(p.error,
              "  Can't add accounts, no cluster defined yet.\n Please contact your administrator.");
    run("add", "cluster", {{"name", "local"}});
    p = run("add", "account", {{"name", "physics"}, {"parent", "nosuch"}});
    EXPECT_EQ(p.error, " Parent account 'nosuch' doesn't exist on cluster local\n        Contact "
                       "your admin to add this account.");
    p = run("add", "account", {{"name", "physics,chem"}, {"description", "Natural sciences"}});
    EXPECT_EQ(p.message,
              " Adding Account(s)\n  physics\n  chem\n Settings\n"
              "  Description     = Natural sciences\n  Organization    = Parent/Account Name\n"
              " Associations\n  A = physics    C = local     \n  A = chem       C = local     \n"
              " Settings\n  Parent        = root\n");
    EXPECT_EQ(db_.account("chem")->organization, "chem");
    run("add", "account", {{"name", "theory"}, {"parent", "physics"}});
    EXPECT_EQ(db_.account("theory")->organization, "physics");
    EXPECT_EQ(run("add", "account", {{"name", "physics"}}).message, " Nothing new added.\n");
    EXPECT_EQ(run("add", "account", {{"name", "x"}, {"cluster", "other"}}).error,
              " This cluster 'other' doesn't exist.\n        Contact your admin to add it to "
              "accounting.");
}

TEST_F(AcctAdminPlan, UsersGetTheirAssociationsAndADefaultAccount) {
    run("add", "cluster", {{"name", "local"}});
    EXPECT_EQ(run("add", "user", {{"name", "bob"}}).error,
              " Need a default account for these users to add.");
    EXPECT_EQ(run("add", "user", {{"name", "bob"}, {"account", "nosuch"}}).error,
              " This account 'nosuch' doesn't exist on cluster local.\n        Contact your admin "
              "to add this account.");
    run("add", "account", {{"name", "physics,chem"}});
    AdminPlan p =
        run("add", "user", {{"name", "Bob"}, {"account", "physics,chem"}, {"adminlevel", "Admin"}});
    EXPECT_EQ(p.message, " Adding User(s)\n  bob\n Settings =\n  Default Account = physics\n"
                         "  Admin Level     = Administrator\n Associations =\n"
                         "  U = bob       A = physics    C = local     \n  U = bob       A = chem  "
                         "     C = local     \n");
    EXPECT_EQ(db_.user("bob")->default_account, "physics");
    EXPECT_EQ(db_.admin_level("bob"), uint32_t(DROVER_ADMIN_ADMINISTRATOR));
    EXPECT_EQ(
        run("add", "user", {{"name", "carol"}, {"adminlevel", "boss"}, {"account", "chem"}}).error,
        " Invalid AdminLevel: boss");
    // DefaultAccount alone makes the association too.
    run("add", "user", {{"name", "dave"}, {"defaultaccount", "chem"}});
    EXPECT_EQ(show("association", {{"user", "dave"}}), (Lines{"local|chem|dave|"}));
    // A partition association.
    run("add", "user", {{"name", "dave"}, {"account", "physics"}, {"partition", "debug"}});
    AdminPlan rows = run("show", "association", {}, {{"user", "dave"}, {"partition", "debug"}});
    ASSERT_EQ(rows.rows.size(), 1u);
}

TEST_F(AcctAdminPlan, ShowAssociationsInTreeOrder) {
    physics();
    run("add", "account", {{"name", "theory"}, {"parent", "physics"}});
    run("add", "account", {{"name", "chem"}});
    run("add", "user", {{"name", "zed"}, {"account", "theory"}});
    EXPECT_EQ(show("association"),
              (Lines{"local|root||", "local|root|root|", "local|chem||root", "local|physics||root",
                     "local|physics|alice|", "local|theory||physics", "local|theory|zed|"}));
    EXPECT_EQ(show("association", {{"account", "theory"}}),
              (Lines{"local|theory||physics", "local|theory|zed|"}));
    EXPECT_EQ(show("user", {}, "defaultaccount"),
              (Lines{"alice|physics", "root|root", "zed|theory"}));
    EXPECT_EQ(show("account", {{"name", "chem,theory"}}, "account"), (Lines{"chem", "theory"}));
    AdminPlan c = run("show", "cluster", {});
    ASSERT_EQ(c.rows.size(), 1u);
    EXPECT_EQ(c.rows[0][1], (std::pair<std::string, std::string>{"controlhost", "head"}));
}

TEST_F(AcctAdminPlan, ModifyUsersAndAccounts) {
    physics();
    run("add", "account", {{"name", "chem"}});
    EXPECT_EQ(run("modify", "user", {{"defaultaccount", "chem"}}, {{"name", "alice"}}).error,
              " User 'alice' has no association with account 'chem'");
    run("add", "user", {{"name", "alice"}, {"account", "chem"}});
    AdminPlan p = run("modify", "user", {{"defaultaccount", "chem"}, {"adminlevel", "operator"}},
                      {{"name", "alice"}});
    EXPECT_EQ(p.message, " Modified users...\n  alice\n");
    EXPECT_EQ(db_.user("alice")->default_account, "chem");
    EXPECT_EQ(db_.admin_level("alice"), uint32_t(DROVER_ADMIN_OPERATOR));
    EXPECT_EQ(run("modify", "user", {{"adminlevel", "none"}}, {{"name", "nobody"}}).message,
              " Nothing modified\n");
    p = run("modify", "account", {{"description", "Chemistry"}, {"parent", "physics"}},
            {{"name", "chem"}});
    EXPECT_EQ(p.message, " Modified accounts...\n  chem\n Modified account associations...\n  C = "
                         "local      A = chem      \n");
    EXPECT_EQ(db_.account("chem")->description, "Chemistry");
    EXPECT_EQ(run("modify", "account", {{"parent", "chem"}}, {{"name", "physics"}}).error,
              " Can't make 'chem' the parent of 'physics': it is below it");
    EXPECT_EQ(run("modify", "user", {{"bogus", "1"}}, {{"name", "alice"}}).error,
              " Unknown option: bogus=1");
}

TEST_F(AcctAdminPlan, DeleteUsersAccountsAndClusters) {
    physics();
    run("add", "account", {{"name", "chem"}});
    run("add", "user", {{"name", "alice"}, {"account", "chem"}});
    // Only an association, with account=; not the one of the user's default account.
    EXPECT_EQ(run("delete", "user", {}, {{"name", "alice"}, {"account", "physics"}}).error,
              " Account 'physics' is the default account of user 'alice'; change it first");
    AdminPlan p = run("delete", "user", {}, {{"name", "alice"}, {"account", "chem"}});
    EXPECT_EQ(p.message,
              " Deleting user associations...\n  C = local      A = chem       U = alice    \n");
    EXPECT_TRUE(db_.user("alice"));
    EXPECT_EQ(run("delete", "account", {}, {{"name", "physics"}}).error,
              " Account 'physics' is the default account of user 'alice'; change it first");
    EXPECT_EQ(run("delete", "account", {}, {{"name", "root"}}).error,
              " You can't delete the root account");
    p = run("delete", "user", {}, {{"name", "alice"}});
    EXPECT_EQ(p.message, " Deleting users...\n  alice\n");
    EXPECT_FALSE(db_.user("alice"));
    EXPECT_EQ(show("association", {{"user", "alice"}}), Lines{});
    p = run("delete", "account", {}, {{"name", "physics,chem"}});
    EXPECT_EQ(p.message, " Deleting accounts...\n  chem\n  physics\n");
    EXPECT_EQ(run("delete", "user", {}, {{"name", "nobody"}}).message, " Nothing deleted\n");
    p = run("delete", "cluster", {}, {{"name", "local"}});
    EXPECT_EQ(p.message, " Deleting clusters...\n  local\n");
    EXPECT_EQ(show("association"), Lines{});
}

TEST_F(AcctAdminPlan, JobsGetDefaultAccountsAndEnforcement) {
    physics();
    std::string acct;
    EXPECT_EQ(db_.check_job(false, "local", "alice", acct, "debug"), "");
    EXPECT_EQ(acct, "physics");
    acct.clear();
    EXPECT_EQ(db_.check_job(false, "local", "stranger", acct, "debug"), "");
    EXPECT_EQ(acct, "");
    const std::string refused = "Invalid account or account/partition combination specified";
    EXPECT_EQ(db_.check_job(true, "local", "stranger", acct, "debug"), refused);
    acct = "chem";
    EXPECT_EQ(db_.check_job(true, "local", "alice", acct, "debug"), refused);
    acct = "PHYSICS";
    EXPECT_EQ(db_.check_job(true, "local", "alice", acct, "debug"), "");
    EXPECT_EQ(acct, "physics");
    acct = "physics";
    EXPECT_EQ(db_.check_job(true, "other", "alice", acct, "debug"), refused);
    // A partition association covers that partition only.
    run("add", "account", {{"name", "gpu"}});
    run("add", "user", {{"name", "alice"}, {"account", "gpu"}, {"partition", "gpus"}});
    acct = "gpu";
    EXPECT_EQ(db_.check_job(true, "local", "alice", acct, "debug"), refused);
    EXPECT_EQ(db_.check_job(true, "local", "alice", acct, "gpus"), "");
    EXPECT_TRUE(acct_enforce_associations("Limits,QOS"));
    EXPECT_TRUE(acct_enforce_associations("associations"));
    EXPECT_FALSE(acct_enforce_associations("nojobs,nosteps"));
    EXPECT_FALSE(acct_enforce_associations(""));
}

TEST_F(AcctAdminPlan, TheCopySurvivesASnapshot) {
    physics();
    auto bytes = db_.snapshot();
    AssocDb other;
    ASSERT_TRUE(other.restore(bytes.data(), bytes.size()));
    EXPECT_EQ(other.all().size(), db_.all().size());
    EXPECT_EQ(other.user("alice")->default_account, "physics");
    EXPECT_EQ(other.account("physics")->description, "Physics");
    bytes[bytes.size() / 2] ^= 0xff;
    bytes.resize(bytes.size() / 2);
    AssocDb damaged;
    EXPECT_FALSE(damaged.restore(bytes.data(), bytes.size()));
}

// Four clusters for federations: local (this controller's), c2, c3 and c4.
class AcctAdminFederation : public AcctAdminPlan {
  protected:
    void SetUp() override { run("add", "cluster", {{"name", "local,c2,c3,c4"}}); }
    // cluster:id for each member of federation, by name.
    std::string members(const std::string &federation) {
        std::string out;
        for (const auto &c : federation_view(db_, "local").members)
            if (c.federation == federation) out += c.name + ":" + std::to_string(c.id) + " ";
        return out;
    }
};

TEST_F(AcctAdminFederation, MembersTakeTheLowestFreeIds) {
    AdminPlan p = run("add", "federation", {{"name", "fed1"}, {"cluster", "local,c3"}});
    EXPECT_EQ(p.error, "");
    EXPECT_EQ(members("fed1"), "c3:2 local:1 ");
    run("modify", "federation", {{"cluster", "+c2,c4"}}, {{"name", "fed1"}});
    EXPECT_EQ(members("fed1"), "c2:3 c3:2 c4:4 local:1 ");
    run("modify", "federation", {{"cluster", "-c3"}}, {{"name", "fed1"}});
    EXPECT_EQ(members("fed1"), "c2:3 c4:4 local:1 ");
    run("modify", "cluster", {{"federation", "fed1"}}, {{"name", "c3"}});
    EXPECT_EQ(members("fed1"), "c2:3 c3:2 c4:4 local:1 ") << "the freed id 2 is taken again";
    // clusters= sets the list: the others leave.
    run("modify", "federation", {{"cluster", "c2,c4"}}, {{"name", "fed1"}});
    FedView v = federation_view(db_, "c2");
    EXPECT_EQ(v.name, "fed1");
    ASSERT_EQ(v.members.size(), 2u);
    EXPECT_EQ(v.self_id(), 3u);
    EXPECT_EQ(federation_view(db_, "local").name, "");
    EXPECT_EQ(federation_view(db_, "local").self_id(), 0u);
}

TEST_F(AcctAdminFederation, Refusals) {
    EXPECT_EQ(run("add", "federation", {}).error, " Need name of federation to add.");
    EXPECT_EQ(run("add", "federation", {{"name", "fed1"}, {"cluster", "c9"}}).error,
              " The cluster c9 doesn't exist. Please add first.\n");
    EXPECT_TRUE(db_.all(DROVER_ACCT_FEDERATION).empty()) << "a refused add stores nothing";
    EXPECT_EQ(run("add", "federation", {{"name", "a,b"}, {"cluster", "local"}}).error,
              " Can't assign clusters to multiple federations.");
    EXPECT_EQ(run("modify", "cluster", {{"federation", "nope"}}, {{"name", "local"}}).error,
              " The federation nope doesn't exist.");
    EXPECT_EQ(run("modify", "cluster", {{"fedstate", "sleepy"}}, {{"name", "local"}}).error,
              " Invalid FedState sleepy.");
    EXPECT_EQ(run("delete", "federation", {}).error,
              " No conditions given to remove, not executing.");
    // The store keeps them inside "key=value;..." text.
    EXPECT_EQ(run("add", "federation", {{"name", "a;b"}}).error, " Invalid federation name 'a;b'");
    EXPECT_EQ(run("modify", "cluster", {{"features", "x=y"}}, {{"name", "c2"}}).error,
              " Invalid feature 'x=y'");
    run("add", "federation", {{"name", "fed1"}});
    EXPECT_EQ(run("add", "federation", {{"name", "fed1"}}).message,
              " This federation fed1 already exists.  Not adding.\n Nothing new added.\n");
}

TEST_F(AcctAdminFederation, ClusterSettingsAndDelete) {
    run("add", "federation", {{"name", "fed1"}, {"cluster", "local,c2"}});
    AdminPlan p = run("modify", "cluster", {{"features", "highmem,gpu"}, {"fedstate", "drain"}},
                      {{"name", "c2"}});
    EXPECT_EQ(p.message, " Setting\n  Feature        = highmem,gpu\n  FedState       = DRAIN\n"
                         " Modified cluster...\n  c2\n");
    run("modify", "cluster", {{"features", "-gpu"}}, {{"name", "c2"}});
    FedView view = federation_view(db_, "local");
    const FedCluster *c2 = view.member("c2");
    ASSERT_TRUE(c2);
    EXPECT_EQ(c2->features, std::vector<std::string>{"highmem"});
    EXPECT_EQ(c2->state, FedState::Drain);
    p = run("delete", "federation", {}, {{"name", "fed1"}});
    EXPECT_EQ(p.message, " Deleting federations...\n  fed1\n");
    EXPECT_EQ(federation_view(db_, "c2").name, "");
    EXPECT_EQ(fed_settings(*db_.cluster("c2")).features, std::vector<std::string>{"highmem"})
        << "features stay with the cluster";
}

TEST_F(AcctAdminFederation, ViableMembers) {
    run("add", "federation", {{"name", "fed1"}, {"cluster", "local,c2,c3"}});
    run("modify", "cluster", {{"features", "highmem,gpu"}}, {{"name", "c2"}});
    run("modify", "cluster", {{"features", "highmem"}}, {{"name", "c3"}});
    FedView v = federation_view(db_, "local");
    auto names = [&v](const std::string &clusters, const std::string &features) {
        return member_names(v, viable_members(v, clusters, features));
    };
    EXPECT_EQ(names("", ""), "c2,c3,local") << "every ACTIVE member, by name";
    EXPECT_EQ(names("C3,local", ""), "c3,local") << "-M's list, in any case";
    EXPECT_EQ(names("", "highmem"), "c2,c3");
    EXPECT_EQ(names("", "highmem,gpu"), "c2") << "every feature listed";
    EXPECT_EQ(names("", "!gpu"), "c3,local") << "'!': none of them";
    EXPECT_EQ(names("local", "highmem"), "") << "both must hold";
    EXPECT_EQ(names("c4", ""), "") << "a cluster outside the federation";
    run("modify", "cluster", {{"fedstate", "drain"}}, {{"name", "c3"}});
    v = federation_view(db_, "local");
    EXPECT_EQ(names("", "highmem"), "c2") << "a member not ACTIVE takes no new job";
    EXPECT_EQ(viable_members(v, "", "") & fed_bit(v.self_id()), fed_bit(1));
    EXPECT_EQ(fed_bit(0), 0u);
    EXPECT_EQ(fed_bit(63), uint64_t(1) << 62);
}

TEST(FederationRecords, ControllerAddressRoundTrip) {
    drover::Config conf;
    conf.controllers = {{"ctl1", "10.0.0.1"}, {"ctl2", "10.0.0.2"}};
    conf.slurmctld_port = 6817;
    AssocRec rec = controller_rec("local", conf);
    FedCluster c;
    read_controllers(rec, c);
    ASSERT_EQ(c.controllers.size(), 2u);
    EXPECT_EQ(c.controllers[1].name, "ctl2");
    EXPECT_EQ(c.controllers[1].addr, "10.0.0.2");
    EXPECT_EQ(c.port, 6817);
    EXPECT_EQ(c.control_host(), "10.0.0.1");
}

TEST(FederationRecords, JobIdsCarryTheOrigin) {
    EXPECT_EQ(fed_origin((3u << kFedIdShift) | 42u), 3u);
    EXPECT_EQ(fed_origin(42u), 0u);
    FedState s{};
    EXPECT_TRUE(parse_fed_state("drain+remove", s));
    EXPECT_EQ(s, FedState::DrainRemove);
    EXPECT_STREQ(fed_state_name(s), "DRAIN+REMOVE");
    EXPECT_FALSE(parse_fed_state("gone", s));
}

} // namespace
