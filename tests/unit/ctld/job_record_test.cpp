// job_record_test.cpp - a job comes back from its stored record exactly as it was stored: every
// member job_fields.hpp lists (which is every member of Job and the structs it holds, or the
// build fails) survives write_job_info + read_job_info, and the sample jobs below give each one a
// value other than its default, so that a member the codec forgets fails here by name.
#include <gtest/gtest.h>

#include <csignal>
#include <set>

#include "ctld/jobs/job_codec.hpp"
#include "ctld/jobs/job_fields.hpp"
#include "ctld/jobs/job_record.hpp"

using namespace drover;
using namespace drover::ctld;

namespace {

// Four nodes, n0..n3.
constexpr std::size_t kNodes = 4;
int node_index(const std::string &name) {
    if (name.size() != 2 || name[0] != 'n' || name[1] < '0' || name[1] >= char('0' + kNodes))
        return -1;
    return name[1] - '0';
}
std::string node_names(const std::vector<uint32_t> &nodes) {
    std::string out;
    for (uint32_t n : nodes) out += (out.empty() ? "n" : ",n") + std::to_string(n);
    return out;
}

Job round_trip(const Job &j, std::string *problem = nullptr) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(write_job_info(fbb, j, node_names, "cl", false));
    flatbuffers::Verifier v(fbb.GetBufferPointer(), fbb.GetSize());
    EXPECT_TRUE(v.VerifyBuffer<proto::JobInfo>(nullptr));
    return read_job_info(*flatbuffers::GetRoot<proto::JobInfo>(fbb.GetBufferPointer()), node_index,
                         kNodes, problem);
}

// ---- comparing members ----
template <class T>
bool same(const T &a, const T &b) {
    return a == b;
}
bool same(const Dependency &a, const Dependency &b) {
    return a.to_string() == b.to_string() && a.any == b.any;
}
bool same(const Job::NodeAlloc &a, const Job::NodeAlloc &b) {
    return node_alloc_fields(a) == node_alloc_fields(b);
}
bool same(const std::vector<Job::NodeAlloc> &a, const std::vector<Job::NodeAlloc> &b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!same(a[i], b[i])) return false;
    return true;
}
template <class Tuple, std::size_t... I>
bool all_same(const Tuple &a, const Tuple &b, std::index_sequence<I...>) {
    return (same(std::get<I>(a), std::get<I>(b)) && ...);
}
template <class Tuple>
bool all_same(const Tuple &a, const Tuple &b) {
    return all_same(a, b, std::make_index_sequence<std::tuple_size_v<Tuple>>());
}
// No JobExtra and an empty one mean the same.
bool same(const std::shared_ptr<const JobExtra> &a, const std::shared_ptr<const JobExtra> &b) {
    static const JobExtra none;
    return all_same(extra_fields(a ? *a : none), extra_fields(b ? *b : none));
}
bool same(const std::shared_ptr<ArrayInfo> &a, const std::shared_ptr<ArrayInfo> &b) {
    if (!a || !b) return !a && !b;
    return all_same(array_info_fields(*a), array_info_fields(*b));
}
bool same(const std::shared_ptr<const ArrayMeta> &a, const std::shared_ptr<const ArrayMeta> &b) {
    if (!a || !b) return !a && !b;
    return all_same(array_meta_fields(*a), array_meta_fields(*b));
}

// Names (prefix + member) of the members that differ.
template <class Tuple, std::size_t N, std::size_t... I>
void differing(const Tuple &a, const Tuple &b, const std::array<const char *, N> &names,
               const std::string &prefix, std::vector<std::string> &out,
               std::index_sequence<I...>) {
    ((same(std::get<I>(a), std::get<I>(b)) ? void() : out.push_back(prefix + names[I])), ...);
}
template <class Tuple, std::size_t N>
void differing(const Tuple &a, const Tuple &b, const std::array<const char *, N> &names,
               const std::string &prefix, std::vector<std::string> &out) {
    static_assert(std::tuple_size_v<Tuple> == N);
    differing(a, b, names, prefix, out, std::make_index_sequence<N>());
}

std::vector<std::string> job_differences(const Job &a, const Job &b) {
    std::vector<std::string> out;
    differing(job_fields(a), job_fields(b), kJobFieldNames, "", out);
    // Which member inside a struct, for a clearer failure.
    differing(extra_fields(a.ext()), extra_fields(b.ext()), kExtraFieldNames, "extra.", out);
    if (a.array && b.array)
        differing(array_info_fields(*a.array), array_info_fields(*b.array), kArrayInfoFieldNames,
                  "array.", out);
    if (a.array_meta && b.array_meta)
        differing(array_meta_fields(*a.array_meta), array_meta_fields(*b.array_meta),
                  kArrayMetaFieldNames, "array_meta.", out);
    for (std::size_t i = 0; i < a.node_alloc.size() && i < b.node_alloc.size(); ++i)
        differing(node_alloc_fields(a.node_alloc[i]), node_alloc_fields(b.node_alloc[i]),
                  kNodeAllocFieldNames, "node_alloc[" + std::to_string(i) + "].", out);
    return out;
}

// ---- the sample jobs ----
JobExtra sample_extra() {
    JobExtra x;
    x.gres = "gpu:2";
    x.constraint = "fast&big";
    x.req_nodes = "n[1-2]";
    x.exc_nodes = "n3";
    x.signal = "B:USR1@90";
    x.gpus = 4;
    x.gpus_per_node = 2;
    x.gpus_per_task = 1;
    x.gpu_bind = "verbose,map_gpu:1,0";
    x.overcommit = true;
    x.licenses = "fluent:1,matlab:2";
    x.reservation = "maint";
    x.suspend_time = 1700000300;
    x.pre_suspend_secs = 42;
    x.suspended_by_preemption = true;
    x.fed_clusters = "c2,c3";
    x.cluster_features = "!gpu";
    x.siblings_viable = 0x6;
    x.siblings_active = 0x4;
    x.cluster_lock = 3;
    x.het_job_id = 40;
    x.het_job_offset = 1;
    x.het_size = 3;
    x.deadline = 1900000000;
    x.signal_sent = true;
    x.orig_dependency = "afterok:7,afterany:8";
    x.dependency = parse_dependency("afterany:8");
    EXPECT_EQ(derive_job_fields(x, node_index, kNodes), ""); // req_bits, exc_bits, signal_*
    return x;
}

// A running array task with every member that a running job has set.
Job running_job() {
    Job j;
    j.id = 42;
    j.uid = 1001;
    j.gid = 1002;
    j.state = DROVER_JOB_RUNNING;
    j.priority = 4294901000u;
    j.min_nodes = 2;
    j.max_nodes = 3;
    j.num_tasks = 4;
    j.cpus_per_task = 2;
    j.time_limit_min = 90;
    j.alloc_cpus = 5;
    j.cancelled_by = 0;
    j.restart_count = 2;
    j.exit_status = 9;
    j.derived_exit_status = 3 << 8;
    j.hold = Hold::User;
    j.exclusive = true;
    j.oversubscribe = true;
    j.requeue = false;
    j.open_append = true;
    j.timed_out = true;
    j.kill_sent = true;
    j.requeue_when_ended = true;
    j.hold_when_requeued = true;
    j.interactive = true;
    j.mem_per_node_mb = 2048;
    j.submit_time = 1700000000;
    j.eligible_time = 1700000100;
    j.start_time = 1700000200;
    j.end_time = 1700000300;
    j.name = "name";
    j.user_name = "alice";
    j.partition = "debug";
    j.account = "physics";
    j.reason = "JobHeldUser";
    j.work_dir = "/home/alice";
    j.std_out = "out-%j.txt";
    j.std_err = "err-%j.txt";
    j.std_in = "in.txt";
    j.submit_host = "login1";
    j.comment = "a comment";
    j.qos = "high";
    j.command = "/home/alice/job.sh";
    j.nodes = {1, 2};
    j.node_cpus = {2, 3};
    j.node_alloc = {{512, "0-1", "gpu:1"}, {1024, "0-2", "gpu:1"}};
    j.mem_per_cpu_mb = 256;
    j.tmp_disk_mb = 100;
    j.ntasks_per_node = 2;
    j.min_cpus_per_node = 3;
    j.share = DROVER_SHARE_EXCLUSIVE;
    j.nice = -5;
    j.contiguous = true;
    j.kill_on_invalid_dep = true;
    j.state_flags = DROVER_JOB_FLAG_REQUEUED;
    j.extra = std::make_shared<const JobExtra>(sample_extra());
    j.array_job_id = 40;
    j.array_task_id = 3;
    auto a = std::make_shared<ArrayInfo>();
    a->pending = {4, 6, 8};
    a->max_running = 3;
    a->step = 2;
    a->min_task = 2;
    a->max_task = 10;
    a->count = 5;
    j.array = a;
    j.array_meta = std::make_shared<const ArrayMeta>(ArrayMeta{5, 2, 10, 2});
    j.sched_nodes = {0, 3};
    return j;
}

// A pending job: the scheduler's forecast (expected start) is only kept for those.
Job pending_job() {
    Job j;
    j.id = 43;
    j.uid = 1001;
    j.name = "waits";
    j.reason = "Resources";
    j.std_out = "slurm-%j.out";
    j.submit_time = j.eligible_time = 1700000000;
    j.expected_start = 1700009000;
    j.sched_nodes = {2};
    JobExtra x;
    x.req_nodes = "n3";
    EXPECT_EQ(derive_job_fields(x, node_index, kNodes), "");
    j.extra = std::make_shared<const JobExtra>(x);
    return j;
}

// Cancelled while pending: it never held CPUs, and a dependency that was met is still shown.
Job cancelled_pending_job() {
    Job j;
    j.id = 44;
    j.state = DROVER_JOB_CANCELLED;
    j.cancelled_by = 1001;
    j.num_tasks = 3;
    j.submit_time = j.eligible_time = 1700000000;
    j.start_time = j.end_time = 1700000500;
    JobExtra x;
    x.orig_dependency = "afterok:12";
    j.extra = std::make_shared<const JobExtra>(x);
    return j;
}

std::vector<Job> samples() {
    return {running_job(), pending_job(), cancelled_pending_job()};
}

// Adds to covered the names of the members that are not at their default.
template <class Tuple, std::size_t N, std::size_t... I>
void not_default(const Tuple &v, const Tuple &dflt, const std::array<const char *, N> &names,
                 const std::string &prefix, std::set<std::string> &covered,
                 std::index_sequence<I...>) {
    ((same(std::get<I>(v), std::get<I>(dflt)) ? void() : void(covered.insert(prefix + names[I]))),
     ...);
}
template <class Tuple, std::size_t N>
void not_default(const Tuple &v, const Tuple &dflt, const std::array<const char *, N> &names,
                 const std::string &prefix, std::set<std::string> &covered) {
    not_default(v, dflt, names, prefix, covered, std::make_index_sequence<N>());
}

} // namespace

TEST(JobRecord, EveryMemberSurvivesTheRecord) {
    for (const Job &j : samples()) {
        std::string problem;
        Job back = round_trip(j, &problem);
        EXPECT_EQ(problem, "");
        std::vector<std::string> diffs = job_differences(j, back);
        std::string names;
        for (const auto &d : diffs) names += " " + d;
        EXPECT_TRUE(diffs.empty())
            << "job " << j.id << ": lost or changed by write_job_info/read_job_info:" << names;
    }
}

// If this fails, a member was added (job_fields.hpp) without a sample that sets it: set it in a
// sample above, so that EveryMemberSurvivesTheRecord checks that the record keeps it.
TEST(JobRecord, SamplesSetEveryMember) {
    std::set<std::string> covered;
    const Job dflt;
    const JobExtra dflt_extra;
    const ArrayInfo dflt_array;
    const ArrayMeta dflt_meta;
    const Job::NodeAlloc dflt_alloc;
    for (const Job &j : samples()) {
        not_default(job_fields(j), job_fields(dflt), kJobFieldNames, "", covered);
        if (j.extra)
            not_default(extra_fields(*j.extra), extra_fields(dflt_extra), kExtraFieldNames,
                        "extra.", covered);
        if (j.array)
            not_default(array_info_fields(*j.array), array_info_fields(dflt_array),
                        kArrayInfoFieldNames, "array.", covered);
        if (j.array_meta)
            not_default(array_meta_fields(*j.array_meta), array_meta_fields(dflt_meta),
                        kArrayMetaFieldNames, "array_meta.", covered);
        for (const auto &a : j.node_alloc)
            not_default(node_alloc_fields(a), node_alloc_fields(dflt_alloc), kNodeAllocFieldNames,
                        "node_alloc.", covered);
    }
    std::vector<std::string> missing;
    auto check = [&](const auto &names, const std::string &prefix) {
        for (const char *n : names)
            if (!covered.count(prefix + n)) missing.push_back(prefix + n);
    };
    check(kJobFieldNames, "");
    check(kExtraFieldNames, "extra.");
    check(kArrayInfoFieldNames, "array.");
    check(kArrayMetaFieldNames, "array_meta.");
    check(kNodeAllocFieldNames, "node_alloc.");
    std::string names;
    for (const auto &m : missing) names += " " + m;
    EXPECT_TRUE(missing.empty()) << "no sample job sets:" << names;
}

// The bug this guards against: a pending "sbatch -w n3" must still require n3 after a restart.
TEST(JobRecord, RequiredAndExcludedNodesComeBackAsBitmaps) {
    Job back = round_trip(pending_job());
    ASSERT_EQ(back.ext().req_bits.size(), kNodes);
    EXPECT_EQ(back.ext().req_bits.count(), 1u);
    EXPECT_TRUE(back.ext().req_bits.test(3));
    Job r = round_trip(running_job());
    EXPECT_TRUE(r.ext().exc_bits.test(3));
    EXPECT_EQ(r.ext().signal_num, SIGUSR1);
    EXPECT_EQ(r.ext().signal_secs, 90u);
    EXPECT_TRUE(r.ext().signal_batch_only);
}

TEST(JobRecord, ANodeNoLongerConfiguredIsAProblem) {
    Job j = pending_job();
    JobExtra x = j.ext();
    x.req_nodes = "n9";
    j.extra = std::make_shared<const JobExtra>(x);
    std::string problem;
    Job back = round_trip(j, &problem);
    EXPECT_EQ(problem, "Invalid node name specified");
    EXPECT_EQ(back.ext().req_nodes, "n9");
}

TEST(JobRecord, DeriveRefusesWhatSubmissionRefuses) {
    JobExtra x;
    x.exc_nodes = "n[0-9]";
    EXPECT_EQ(derive_job_fields(x, node_index, kNodes), "Invalid node name specified");
    JobExtra s;
    s.signal = "NOSUCHSIG@x";
    EXPECT_EQ(derive_job_fields(s, node_index, kNodes), "Invalid --signal specification");
}

// The plugin view and the accounting record are made from the same table as the record.
TEST(JobCodec, ViewAndAccountingRecordCarryTheTablesFields) {
    Job j = running_job();
    drover_job_view v = codec::job_view(j);
    EXPECT_EQ(v.struct_size, sizeof v);
    EXPECT_EQ(std::string(v.name.ptr, v.name.len), "name");
    EXPECT_EQ(std::string(v.qos.ptr, v.qos.len), "high");
    EXPECT_EQ(std::string(v.gres.ptr, v.gres.len), "gpu:2");
    EXPECT_EQ(v.mem_per_node_mb, 2048u);
    EXPECT_EQ(v.exclusive, 1u);
    AcctRecord r = codec::acct_record(j, "n[1-2]");
    EXPECT_EQ(r.comment, "a comment");
    EXPECT_EQ(r.qos, "high");
    EXPECT_EQ(r.req_mem_mb, 2048u);
    EXPECT_EQ(r.alloc_nodes, 2u);
    EXPECT_EQ(r.array_job_id, 40u);
    EXPECT_EQ(r.node_list, "n[1-2]");
    // An array's record with tasks still waiting in it: its own id, no task of its own.
    Job rec;
    rec.id = rec.array_job_id = 50;
    rec.array = std::make_shared<ArrayInfo>();
    AcctRecord ra = codec::acct_record(rec, "");
    EXPECT_EQ(ra.array_job_id, 50u);
    EXPECT_EQ(ra.array_task_id, uint32_t(DROVER_NO_VAL));
}
