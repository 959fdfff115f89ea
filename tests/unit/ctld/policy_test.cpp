// policy_test.cpp - site policy without a daemon: TRES lists and sacctmgr's settings as stored
// and shown, QOS records planned, and AccountingStorageEnforce's QOS choice, submit limits and
// pending reasons against an association tree and a usage index built in memory.
#include <gtest/gtest.h>

#include "ctld/acct/acct_admin.hpp"
#include "ctld/jobs/job.hpp"
#include "ctld/jobs/licenses.hpp"
#include "ctld/policy/acct_policy.hpp"

using namespace drover::ctld;
using namespace drover::ctld::policy;

namespace {

const LocalCluster kLocal{"local", "head", 6817};
constexpr int64_t kNow = 1'790'000'000; // the time the tests' jobs start and are checked at

TEST(Tres, ParsesSetsClearsAndShowsInSlurmsOrder) {
    Tres t;
    EXPECT_EQ(apply_tres(t, "node=2,mem=2G,cpu=4,gres/gpu=1"), "");
    EXPECT_EQ(tres_text(t), "cpu=4,mem=2048,node=2,gres/gpu=1");
    EXPECT_EQ(tres_display(t), "cpu=4,mem=2G,node=2,gres/gpu=1");
    EXPECT_EQ(apply_tres(t, "mem=-1,cpu=8"), "");
    EXPECT_EQ(tres_display(t), "cpu=8,node=2,gres/gpu=1");
    EXPECT_EQ(apply_tres(t, "bogus=1"), " Invalid TRES name 'bogus'");
    EXPECT_EQ(apply_tres(t, "cpu=x"), " Invalid TRES count 'cpu=x'");
    EXPECT_EQ(tres_display(t), "cpu=8,node=2,gres/gpu=1") << "a refusal changes nothing";
    EXPECT_EQ(tres_text(parse_stored_tres("cpu=8,node=2")), "cpu=8,node=2");
}

TEST(Settings, ApplyStoreAndShow) {
    Settings s;
    auto qos = [](std::string_view q) { return q == "normal" || q == "high"; };
    EXPECT_EQ(apply_setting(s, "maxwall", "1-02:00:00", Owner::Assoc, qos), "");
    EXPECT_EQ(apply_setting(s, "grptres", "cpu=10,mem=1G", Owner::Assoc, qos), "");
    EXPECT_EQ(apply_setting(s, "maxjobs", "3", Owner::Assoc, qos), "");
    EXPECT_EQ(apply_setting(s, "qos", "normal,high", Owner::Assoc, qos), "");
    EXPECT_EQ(display(s, "maxwall", Owner::Assoc), "1-02:00:00");
    EXPECT_EQ(display(s, "grptres", Owner::Assoc), "cpu=10,mem=1G");
    EXPECT_EQ(display(s, "qos", Owner::Assoc), "high,normal");
    EXPECT_EQ(display(s, "fairshare", Owner::Assoc), "1");
    EXPECT_EQ(apply_setting(s, "qos", "-high", Owner::Assoc, qos), "");
    EXPECT_EQ(display(s, "qos", Owner::Assoc), "normal");
    EXPECT_EQ(apply_setting(s, "qos", "+nosuch", Owner::Assoc, qos),
              " Invalid QOS name 'nosuch' for qos: +nosuch");
    EXPECT_EQ(apply_setting(s, "maxjobs", "-1", Owner::Assoc, qos), "");
    EXPECT_EQ(display(s, "maxjobs", Owner::Assoc), "");
    EXPECT_EQ(apply_setting(s, "maxjobs", "many", Owner::Assoc, qos),
              " Invalid value for maxjobs: many");
    EXPECT_EQ(apply_setting(s, "flags", "DenyOnLimit", Owner::Assoc, qos),
              " Unknown option: flags=DenyOnLimit");
    EXPECT_EQ(decode(encode(s)), s);
    Settings q;
    EXPECT_EQ(display(q, "priority", Owner::Qos), "0");
    EXPECT_EQ(display(q, "preemptmode", Owner::Qos), "cluster");
    EXPECT_EQ(display(q, "usagefactor", Owner::Qos), "1.000000");
    EXPECT_EQ(display(q, "gracetime", Owner::Qos), "00:00:00");
    EXPECT_EQ(apply_setting(q, "flags", "denyonlimit,OverPartQOS", Owner::Qos, qos), "");
    EXPECT_EQ(display(q, "flags", Owner::Qos), "DenyOnLimit,OverPartQOS");
    EXPECT_EQ(apply_setting(q, "flags", "-OverPartQOS", Owner::Qos, qos), "");
    EXPECT_EQ(display(q, "flags", Owner::Qos), "DenyOnLimit");
    EXPECT_EQ(apply_setting(q, "flags", "Bogus", Owner::Qos, qos),
              " Invalid QOS flag 'Bogus' for flags: Bogus");
    EXPECT_EQ(apply_setting(q, "gracetime", "120", Owner::Qos, qos), "");
    EXPECT_EQ(display(q, "gracetime", Owner::Qos), "00:02:00")
        << "seconds, as Slurm's sacctmgr reads it";
    Limits l = Limits::from(q);
    EXPECT_TRUE(l.deny_on_limit);
    EXPECT_FALSE(l.over_part_qos);
}

class Policy : public ::testing::Test {
  protected:
    void SetUp() override {
        db_.replace({});
        plan("add", "cluster", {{"name", "local"}});
        plan("add", "qos", {{"name", "high"}, {"priority", "10"}});
        plan("add", "account", {{"name", "physics"}});
        plan("add", "account", {{"name", "theory"}, {"parent", "physics"}});
        plan("add", "user", {{"name", "alice"}, {"account", "theory"}});
        plan("add", "user", {{"name", "bob"}, {"account", "theory"}});
    }
    AdminPlan plan(std::string verb, std::string entity, AdminFields set, AdminFields where = {}) {
        AdminPlan p = plan_admin(
            db_, {std::move(verb), std::move(entity), std::move(set), std::move(where)}, kLocal);
        EXPECT_EQ(p.error, "");
        db_.apply(p.change);
        return p;
    }
    Job job(const char *user, uint32_t uid, uint32_t cpus = 1) {
        Job j;
        j.id = next_id_++;
        j.uid = uid;
        j.user_name = user;
        j.account = "theory";
        j.partition = "debug";
        j.num_tasks = cpus;
        return j;
    }
    // Counts the job as the job manager does when it writes it.
    void keep(const Job &j) { use_.set(j.id, pol().share_of(j)); }
    void run(Job &j) {
        j.state = DROVER_JOB_RUNNING;
        j.start_time = kNow;
        j.nodes = {0};
        j.node_cpus = {j.num_tasks};
        keep(j);
    }
    AcctPolicy pol(const char *enforce = "associations,limits,qos") const {
        return {db_, Enforce::parse(enforce), "local", part_qos_};
    }
    std::string submit(Job &j, std::string *why = nullptr) {
        if (std::string e = pol().choose_qos(j); !e.empty()) return e;
        std::string r = pol().check_submit(j, use_, why);
        if (r.empty()) keep(j);
        return r;
    }
    AssocDb db_;
    UsageIndex use_;
    uint32_t next_id_ = 1;
    AcctPolicy::PartQos part_qos_; // the partitions' QOS= (none unless a test sets it)
};

TEST_F(Policy, TheQosIsTheDefaultOrAllowedOne) {
    Job j = job("alice", 1001);
    EXPECT_EQ(pol().choose_qos(j), "");
    EXPECT_EQ(j.qos, "normal");
    j.qos = "high";
    EXPECT_EQ(pol().choose_qos(j), kInvalidQos) << "not in the association's list";
    EXPECT_EQ(pol("limits").choose_qos(j), "") << "only qos enforces the list";
    plan("modify", "account", {{"qos", "normal,high"}, {"defaultqos", "high"}},
         {{"name", "physics"}});
    Job k = job("alice", 1001);
    EXPECT_EQ(pol().choose_qos(k), "");
    EXPECT_EQ(k.qos, "high") << "the parent's default QOS is inherited";
    k.qos = "nosuch";
    EXPECT_EQ(pol("limits").choose_qos(k), kInvalidQos);
}

TEST_F(Policy, QosPlusAddsToTheInheritedList) {
    plan("modify", "user", {{"qos", "+high"}}, {{"name", "bob"}});
    const AssocRec *bob = db_.job_assoc("local", "bob", "theory", "");
    ASSERT_TRUE(bob);
    EXPECT_EQ(db_.qos_list(*bob), (std::vector<std::string>{"high", "normal"}));
    Job j = job("bob", 1002);
    EXPECT_EQ(pol().choose_qos(j), "");
    EXPECT_EQ(j.qos, "normal") << "two allowed and no default: normal";
    plan("modify", "user", {{"qos", "-normal"}}, {{"name", "bob"}});
    Job k = job("bob", 1002);
    EXPECT_EQ(pol().choose_qos(k), "");
    EXPECT_EQ(k.qos, "high") << "the only QOS allowed is the default";
}

TEST_F(Policy, SubmitLimitsRefuseAndCountArrayTasks) {
    plan("modify", "user", {{"maxsubmitjobs", "3"}}, {{"name", "alice"}});
    std::string why;
    for (int i = 0; i < 3; ++i) {
        Job j = job("alice", 1001);
        EXPECT_EQ(submit(j), "") << i;
    }
    Job j = job("alice", 1001);
    EXPECT_EQ(submit(j, &why), kPolicyRefused);
    EXPECT_EQ(why, "AssocMaxSubmitJobLimit");
    Job b = job("bob", 1002);
    EXPECT_EQ(submit(b), "") << "a limit on alice's association is hers alone";
    // GrpSubmitJobs on the parent holds the whole subtree: 4 jobs already counted there.
    plan("modify", "account", {{"grpsubmitjobs", "5"}}, {{"name", "physics"}});
    Job arr = job("bob", 1002);
    arr.array = std::make_shared<ArrayInfo>();
    arr.array->pending = {1, 2};
    EXPECT_EQ(submit(arr, &why), kPolicyRefused) << "an array counts each task";
    EXPECT_EQ(why, "AssocGrpSubmitJobsLimit");
    Job one = job("bob", 1002);
    EXPECT_EQ(submit(one), "");
}

TEST_F(Policy, MaxWallRefusesAtSubmitAndBecomesTheDefaultLimit) {
    plan("modify", "account", {{"maxwall", "60"}}, {{"name", "physics"}});
    std::string why;
    Job j = job("alice", 1001);
    j.time_limit_min = 61;
    EXPECT_EQ(submit(j, &why), kPolicyRefused);
    EXPECT_EQ(why, "AssocMaxWallDurationPerJobLimit") << "inherited from the parent account";
    Job k = job("alice", 1001);
    EXPECT_EQ(submit(k), "");
    EXPECT_EQ(k.time_limit_min, 60u) << "no time limit: MaxWall becomes the job's";
    plan("modify", "qos", {{"maxwall", "120"}}, {{"name", "normal"}});
    Job q = job("alice", 1001);
    q.time_limit_min = 90;
    EXPECT_EQ(submit(q), "") << "the QOS's MaxWall comes before the association's";
}

TEST_F(Policy, StartLimitsGiveSlurmsReasons) {
    plan("modify", "user", {{"maxjobs", "1"}}, {{"name", "alice"}});
    plan("modify", "account", {{"grptres", "cpu=4"}}, {{"name", "physics"}});
    Job a1 = job("alice", 1001, 2), a2 = job("alice", 1001, 1), b1 = job("bob", 1002, 3);
    for (Job *j : {&a1, &a2, &b1}) ASSERT_EQ(submit(*j), "");
    EXPECT_EQ(pol().check_start(a1, use_, kNow), nullptr);
    run(a1);
    EXPECT_STREQ(pol().check_start(a2, use_, kNow), "AssocMaxJobsLimit");
    EXPECT_STREQ(pol().check_start(b1, use_, kNow), "AssocGrpCpuLimit") << "2 held + 3 asked > 4";
    Job big = job("bob", 1002, 5);
    plan("modify", "user", {{"maxtres", "cpu=4"}}, {{"name", "bob"}});
    EXPECT_STREQ(pol().check_start(big, use_, kNow), "AssocMaxCpuPerJobLimit");
    a1.state = DROVER_JOB_COMPLETE;
    keep(a1);
    EXPECT_EQ(pol().check_start(a2, use_, kNow), nullptr) << "the end frees both limits";
    EXPECT_EQ(pol().check_start(b1, use_, kNow), nullptr);
    EXPECT_EQ(pol("associations").check_start(big, use_, kNow), nullptr) << "limits not enforced";
}

TEST_F(Policy, QosLimitsComeFirstAndPerUser) {
    plan("modify", "qos", {{"maxjobsperuser", "1"}, {"grpjobs", "3"}}, {{"name", "normal"}});
    plan("modify", "user", {{"maxjobs", "5"}}, {{"name", "alice"}});
    Job a1 = job("alice", 1001), a2 = job("alice", 1001), b1 = job("bob", 1002);
    for (Job *j : {&a1, &a2, &b1}) ASSERT_EQ(submit(*j), "");
    run(a1);
    EXPECT_STREQ(pol().check_start(a2, use_, kNow), "QOSMaxJobsPerUserLimit")
        << "the QOS's per-user limit overrides the association's MaxJobs";
    EXPECT_EQ(pol().check_start(b1, use_, kNow), nullptr);
    run(b1);
    Job c = job("bob", 1002);
    ASSERT_EQ(submit(c), "");
    plan("modify", "qos", {{"grpjobs", "2"}}, {{"name", "normal"}});
    EXPECT_STREQ(pol().check_start(a2, use_, kNow), "QOSGrpJobsLimit");
    plan("modify", "qos", {{"mintres", "cpu=2"}, {"grpjobs", "-1"}, {"maxjobsperuser", "-1"}},
         {{"name", "normal"}});
    EXPECT_STREQ(pol().check_start(a2, use_, kNow), "QOSMinCpuNotSatisfied");
}

TEST_F(Policy, MaxTresMinsHoldsAJobByItsTimeLimit) {
    plan("modify", "user", {{"maxtresmins", "cpu=100"}}, {{"name", "alice"}});
    Job small = job("alice", 1001, 2), big = job("alice", 1001, 2), open = job("alice", 1001, 8);
    small.time_limit_min = 50;
    big.time_limit_min = 51;
    for (Job *j : {&small, &big, &open}) ASSERT_EQ(submit(*j), "");
    EXPECT_EQ(pol().check_start(small, use_, kNow), nullptr) << "2 CPUs x 50 minutes = 100";
    EXPECT_STREQ(pol().check_start(big, use_, kNow), "AssocMaxCpuMinutesPerJobLimit");
    EXPECT_EQ(pol().check_start(open, use_, kNow), nullptr) << "no time limit: nothing to multiply";
    plan("modify", "qos", {{"maxtresmins", "cpu=10"}}, {{"name", "normal"}});
    EXPECT_STREQ(pol().check_start(small, use_, kNow), "QOSMaxCpuMinutesPerJobLimit");
}

TEST_F(Policy, GrpTresRunMinsCountsWhatRunningJobsHaveLeft) {
    plan("modify", "account", {{"grptresrunmins", "cpu=100"}}, {{"name", "physics"}});
    Job a = job("alice", 1001, 2), b = job("bob", 1002, 1);
    a.time_limit_min = 40;
    b.time_limit_min = 30;
    ASSERT_EQ(submit(a), "");
    ASSERT_EQ(submit(b), "");
    run(a);
    EXPECT_STREQ(pol().check_start(b, use_, kNow), "AssocGrpCPURunMinutesLimit")
        << "2 CPUs x 40 minutes left, and 1 x 30 asked: over 100";
    EXPECT_EQ(pol().check_start(b, use_, kNow + 20 * 60), nullptr)
        << "20 minutes on, 40 are left to the running job";
    plan("modify", "qos", {{"grptresrunmins", "cpu=50"}}, {{"name", "normal"}});
    EXPECT_STREQ(pol().check_start(b, use_, kNow + 20 * 60), "QOSGrpCPURunMinutesLimit");
}

TEST_F(Policy, DenyOnLimitRefusesAtSubmit) {
    plan("modify", "qos", {{"maxtres", "cpu=2"}}, {{"name", "normal"}});
    Job j = job("alice", 1001, 4);
    EXPECT_EQ(submit(j), "") << "without DenyOnLimit the job waits";
    EXPECT_STREQ(pol().check_start(j, use_, kNow), "QOSMaxCpuPerJobLimit");
    plan("modify", "qos", {{"flags", "DenyOnLimit"}}, {{"name", "normal"}});
    Job k = job("alice", 1001, 4);
    std::string why;
    EXPECT_EQ(submit(k, &why), kPolicyRefused);
    EXPECT_EQ(why, "QOSMaxCpuPerJobLimit");
}

TEST_F(Policy, APartitionQosComesFirstUnlessTheJobsHasOverPartQos) {
    plan("add", "qos", {{"name", "part"}, {"maxjobsperuser", "1"}, {"maxwall", "30"}});
    plan("modify", "user", {{"qos", "+high"}}, {{"name", "alice"}});
    plan("modify", "qos", {{"maxjobsperuser", "3"}, {"maxwall", "60"}}, {{"name", "high"}});
    part_qos_ = [](const std::string &p) { return p == "debug" ? "part" : ""; };
    std::string why;
    Job w = job("alice", 1001);
    w.qos = "high";
    w.time_limit_min = 45;
    EXPECT_EQ(submit(w, &why), kPolicyRefused);
    EXPECT_EQ(why, "QOSMaxWallDurationPerJobLimit") << "the partition's MaxWall of 30 first";
    Job a1 = job("alice", 1001), a2 = job("alice", 1001);
    a1.qos = a2.qos = "high";
    ASSERT_EQ(submit(a1), "");
    ASSERT_EQ(submit(a2), "");
    run(a1);
    EXPECT_STREQ(pol().check_start(a2, use_, kNow), "QOSMaxJobsPerUserLimit")
        << "the partition QOS's per-user limit of 1 holds a job of another QOS";
    plan("modify", "qos", {{"flags", "OverPartQOS"}}, {{"name", "high"}});
    EXPECT_EQ(pol().check_start(a2, use_, kNow), nullptr) << "OverPartQOS: high's limit of 3 first";
    Job other = job("bob", 1002);
    other.partition = "batch";
    ASSERT_EQ(submit(other), "");
    EXPECT_EQ(other.qos, "normal");
    EXPECT_EQ(pol().check_start(other, use_, kNow), nullptr) << "no partition QOS there";
}

TEST_F(Policy, LicensesAreTresOfTheirOwn) {
    plan("modify", "account", {{"grptres", "license/matlab=2"}}, {{"name", "physics"}});
    Job a = job("alice", 1001), b = job("bob", 1002);
    a.mutable_extra().licenses = "matlab:2";
    b.mutable_extra().licenses = "matlab:1";
    ASSERT_EQ(submit(a), "");
    ASSERT_EQ(submit(b), "");
    run(a);
    EXPECT_STREQ(pol().check_start(b, use_, kNow), "AssocGrpLicense");
}

TEST(PolicyPlan, QosRecordsAddShowModifyDelete) {
    AssocDb db;
    auto plan = [&db](std::string verb, AdminFields set, AdminFields where = {}) {
        AdminPlan p =
            plan_admin(db, {std::move(verb), "qos", std::move(set), std::move(where)}, kLocal);
        db.apply(p.change);
        return p;
    };
    AdminPlan p = plan("show", {});
    ASSERT_EQ(p.rows.size(), 1u) << "normal exists before anything is stored";
    p = plan("add", {{"name", "high"}, {"priority", "100"}, {"maxwall", "2:00:00"}});
    EXPECT_EQ(p.error, "");
    EXPECT_EQ(p.message, " Adding QOS(s)\n  Name           = high\n");
    p = plan("add", {{"name", "high"}});
    EXPECT_EQ(p.message, " This QOS high already exists.  Not adding.\n");
    p = plan("show", {}, {{"name", "high"}});
    ASSERT_EQ(p.rows.size(), 1u);
    auto field = [&p](const char *k) {
        for (const auto &[key, v] : p.rows[0])
            if (key == k) return v;
        return std::string("(absent)");
    };
    EXPECT_EQ(field("name"), "high");
    EXPECT_EQ(field("priority"), "100");
    EXPECT_EQ(field("maxwall"), "02:00:00");
    EXPECT_EQ(field("preemptmode"), "cluster");
    p = plan("modify", {{"maxjobsperuser", "2"}, {"bogus", "1"}}, {{"name", "high"}});
    EXPECT_EQ(p.error, " Unknown option: bogus=1");
    EXPECT_TRUE(p.change.empty()) << "nothing half-applied";
    p = plan("modify", {{"maxjobsperuser", "2"}}, {{"name", "high"}});
    EXPECT_EQ(p.message, " Modified qos...\n  high\n");
    p = plan("delete", {}, {{"name", "high"}});
    EXPECT_EQ(p.message, " Deleting QOS(s)...\n  high\n");
    EXPECT_EQ(db.qos("high"), nullptr);
}

} // namespace

namespace {

TEST(LicensePool, AsksAreCheckedHeldByRunningJobsAndFreed) {
    Licenses pool("matlab:2,fluent:1");
    std::string ask = "matlab,matlab:1";
    EXPECT_TRUE(pool.read_ask(ask).ok());
    EXPECT_EQ(ask, "matlab:2");
    std::string bad = "matlab:3";
    EXPECT_EQ(pool.read_ask(bad).text(), kInvalidLicenses) << "more than there are";
    bad = "ansys:1";
    EXPECT_EQ(pool.read_ask(bad).text(), kInvalidLicenses) << "not configured";
    bad = "matlab:x";
    EXPECT_EQ(pool.read_ask(bad).text(), kInvalidLicenses);
    Job a, b;
    a.id = 1;
    b.id = 2;
    a.mutable_extra().licenses = "matlab:2";
    b.mutable_extra().licenses = "matlab:1,fluent:1";
    EXPECT_TRUE(pool.free_for(a));
    a.state = DROVER_JOB_RUNNING;
    pool.set(a);
    EXPECT_FALSE(pool.free_for(b));
    auto rows = pool.rows();
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "fluent") << "sorted by name";
    EXPECT_EQ(rows[1].used, 2u);
    a.state = DROVER_JOB_COMPLETE;
    pool.set(a);
    EXPECT_TRUE(pool.free_for(b));
    EXPECT_EQ(pool.rows()[1].used, 0u);
}

} // namespace
