// select_cons_tres_test.cpp - select/cons_tres through its ops table: CPUs, cores, memory, GPUs,
// features, node lists, weights, exclusive jobs, EBUSY/ENOSPC, replay after node_init.
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace drover::plugin::test {
namespace {

struct NodeSpec {
    std::string name;
    uint32_t cpus = 8;
    uint64_t mem_mb = 8000;
    uint32_t weight = 1;
    std::string features;
    std::string gres;
    uint32_t threads_per_core = 1;
    uint64_t tmp_mb = 1000;
};

using Nodes = std::vector<uint32_t>;
using Conf = std::map<std::string, std::string>;

drover_str dstr(const std::string &s) {
    return {s.data(), s.size()};
}

// One job, with the strings and bitmaps its view points at.
struct Job {
    drover_job_view v{};
    std::string gres, constraint;
    Bits required{0}, excluded{0};

    explicit Job(uint32_t id, uint32_t tasks = 1) {
        v.struct_size = sizeof v;
        v.job_id = id;
        v.min_nodes = 1;
        v.max_nodes = DROVER_INFINITE;
        v.num_tasks = tasks;
        v.cpus_per_task = 1;
        v.time_limit_min = DROVER_INFINITE;
        v.share = DROVER_SHARE_CORES;
    }
    Job(const Job &) = delete;
    Job &operator=(const Job &) = delete;

    const drover_job_view *view() {
        v.gres = dstr(gres);
        v.constraint = dstr(constraint);
        v.required_nodes = required.nbits ? required.view() : drover_bitmap_view{nullptr, 0};
        v.excluded_nodes = excluded.nbits ? excluded.view() : drover_bitmap_view{nullptr, 0};
        return &v;
    }
    Job &nodes(uint32_t min, uint32_t max = DROVER_INFINITE) {
        v.min_nodes = min;
        v.max_nodes = max;
        return *this;
    }
    Job &mem(uint64_t mb) { return v.mem_per_node_mb = mb, *this; }
    Job &mem_per_cpu(uint64_t mb) { return v.mem_per_cpu_mb = mb, *this; }
    Job &cpt(uint32_t n) { return v.cpus_per_task = n, *this; }
    Job &per_node(uint32_t n) { return v.ntasks_per_node = n, *this; }
    Job &with_gres(std::string g) { return gres = std::move(g), *this; }
    Job &with_constraint(std::string c) { return constraint = std::move(c), *this; }
    Job &share(uint32_t s) { return v.share = s, *this; }
    Job &exclusive() { return v.share = DROVER_SHARE_EXCLUSIVE, v.exclusive = 1, *this; }
    Job &require(uint32_t n, std::initializer_list<uint32_t> idx) {
        return required = Bits(n, idx), *this;
    }
    Job &exclude(uint32_t n, std::initializer_list<uint32_t> idx) {
        return excluded = Bits(n, idx), *this;
    }
    Job &contiguous() { return v.contiguous = 1, *this; }
};

class PluginSelectConsTres : public ::testing::Test {
  protected:
    void start(std::vector<NodeSpec> specs, const Conf &conf = {}) {
        for (const auto &[k, value] : conf) conf_.raw[k] = value;
        specs_ = std::move(specs);
        set_.load("select/cons_tres");
        init_nodes();
    }

    void init_nodes() {
        views_.clear();
        for (const auto &s : specs_) {
            drover_node_view v{};
            v.struct_size = sizeof v;
            v.name = dstr(s.name);
            v.cpus = s.cpus;
            v.threads_per_core = s.threads_per_core;
            v.sockets = 1;
            v.cores_per_socket = s.cpus / s.threads_per_core;
            v.real_memory_mb = s.mem_mb;
            v.tmp_disk_mb = s.tmp_mb;
            v.weight = s.weight;
            v.features = dstr(s.features);
            v.gres = dstr(s.gres);
            v.state = DROVER_NODE_IDLE;
            views_.push_back(v);
        }
        drover_error err{};
        ASSERT_EQ(ops().node_init(state(), views_.data(), uint32_t(views_.size()), &err), DROVER_OK)
            << err.text;
    }

    const drover_select_ops &ops() const { return set_.select().ops; }
    void *state() const { return set_.select().state; }
    uint32_t n() const { return uint32_t(specs_.size()); }

    int test(Job &j, Nodes *picked = nullptr, int mode = DROVER_SELECT_RUN_NOW,
             const Bits *usable = nullptr) {
        Bits all = Bits::all(n());
        Bits out(n());
        drover_bitmap w = out.writable();
        err_ = drover_error{};
        int rc =
            ops().job_test(state(), j.view(), (usable ? *usable : all).view(), mode, &w, &err_);
        if (picked) *picked = out.indexes();
        return rc;
    }

    // job_test in RUN_NOW, then job_begin on what it picked; returns the picked nodes.
    Nodes start_job(Job &j) {
        Nodes picked;
        int rc = test(j, &picked);
        EXPECT_EQ(rc, DROVER_OK) << "job " << j.v.job_id << ": " << err_.text;
        if (rc == DROVER_OK) begin(j, picked);
        return picked;
    }

    void begin(Job &j, const Nodes &nodes) {
        Bits b(n());
        for (uint32_t i : nodes) b.words[i / 64] |= uint64_t{1} << (i % 64);
        drover_error err{};
        ASSERT_EQ(ops().job_begin(state(), j.view(), b.view(), &err), DROVER_OK) << err.text;
    }

    void fini(Job &j) {
        drover_error err{};
        ASSERT_EQ(ops().job_fini(state(), j.view(), &err), DROVER_OK) << err.text;
    }

    drover_node_alloc detail(uint32_t job_id, uint32_t node, int *rc = nullptr) {
        drover_node_alloc a{};
        a.struct_size = sizeof a;
        int r = ops().job_alloc_detail(state(), job_id, node, &a);
        if (rc)
            *rc = r;
        else
            EXPECT_EQ(r, DROVER_OK) << "job " << job_id << " node " << node;
        return a;
    }
    std::string cpu_ids(uint32_t job_id, uint32_t node) { return detail(job_id, node).cpu_ids; }
    std::string gres(uint32_t job_id, uint32_t node) { return detail(job_id, node).gres; }

    Config conf_ = real_plugin_config();
    PluginSet set_{conf_, "ctld"};
    std::vector<NodeSpec> specs_;
    std::vector<drover_node_view> views_;
    drover_error err_{};
};

std::vector<NodeSpec> plain(uint32_t count, uint32_t cpus = 8, uint64_t mem = 8000) {
    std::vector<NodeSpec> out;
    for (uint32_t i = 0; i < count; ++i) {
        NodeSpec s;
        s.name = "n" + std::to_string(i);
        s.cpus = cpus;
        s.mem_mb = mem;
        out.push_back(s);
    }
    return out;
}

TEST_F(PluginSelectConsTres, LoadsWithItsOptionalOps) {
    start(plain(1));
    EXPECT_EQ(set_.select().id, "select/cons_tres");
    EXPECT_NE(ops().job_cpus_on_node, nullptr);
    EXPECT_NE(ops().job_alloc_detail, nullptr);
}

TEST_F(PluginSelectConsTres, JobsShareANodeByCpusAndFillItFirst) {
    start(plain(2), {{"defmempercpu", "100"}});
    Job a(1, 2), b(2, 2), c(3, 2), d(4, 2), e(5, 2);
    EXPECT_EQ(start_job(a), (Nodes{0}));
    EXPECT_EQ(start_job(b), (Nodes{0})); // best fit: the partly used node
    EXPECT_EQ(start_job(c), (Nodes{0}));
    EXPECT_EQ(start_job(d), (Nodes{0}));
    EXPECT_EQ(cpu_ids(1, 0), "0-1");
    EXPECT_EQ(cpu_ids(2, 0), "2-3");
    EXPECT_EQ(cpu_ids(4, 0), "6-7");
    EXPECT_EQ(ops().job_cpus_on_node(state(), 3, 0), 2u);
    EXPECT_EQ(ops().job_cpus_on_node(state(), 3, 1), 0u);
    EXPECT_EQ(start_job(e), (Nodes{1}));
    EXPECT_EQ(detail(5, 1).mem_mb, 200u); // DefMemPerCPU x 2

    Job big(6, 7);
    EXPECT_EQ(test(big), DROVER_EBUSY);
    Job huge(7, 17);
    EXPECT_EQ(test(huge), DROVER_ENOSPC) << err_.text;
    EXPECT_EQ(test(huge, nullptr, DROVER_SELECT_TEST_ONLY), DROVER_ENOSPC);
    Nodes picked;
    EXPECT_EQ(test(big, &picked, DROVER_SELECT_TEST_ONLY), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{0}));
}

TEST_F(PluginSelectConsTres, SpreadsTasksOverNodesWhenOneIsNotEnough) {
    start(plain(3), {{"defmempercpu", "100"}});
    Job a(1, 12);
    EXPECT_EQ(start_job(a), (Nodes{0, 1}));
    EXPECT_EQ(ops().job_cpus_on_node(state(), 1, 0), 8u);
    EXPECT_EQ(ops().job_cpus_on_node(state(), 1, 1), 4u);
    Job b(2, 4);
    EXPECT_EQ(start_job(b), (Nodes{1}));
    Job c(3, 2);
    c.nodes(2, 2); // only n2 has free CPUs now
    EXPECT_EQ(test(c), DROVER_EBUSY);
    Nodes picked;
    EXPECT_EQ(test(c, &picked, DROVER_SELECT_TEST_ONLY), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{0, 1}));
}

TEST_F(PluginSelectConsTres, ConsumableMemoryRefusesWhatFitsCpusButNotMemory) {
    start(plain(1, 8, 1000));
    Job a(1);
    a.mem(800);
    start_job(a);
    EXPECT_EQ(detail(1, 0).mem_mb, 800u);
    Job b(2);
    b.mem(300);
    EXPECT_EQ(test(b), DROVER_EBUSY);
    EXPECT_EQ(test(b, nullptr, DROVER_SELECT_TEST_ONLY), DROVER_OK);
    Job c(3);
    c.mem(200);
    EXPECT_EQ(start_job(c), (Nodes{0}));
    Job d(4);
    d.mem(2000);
    EXPECT_EQ(test(d), DROVER_ENOSPC);
    EXPECT_NE(std::string(err_.text).find("2000 MB"), std::string::npos) << err_.text;
}

TEST_F(PluginSelectConsTres, MemPerCpuScalesWithTheCpusHeld) {
    start(plain(1, 8, 1000));
    Job a(1, 4);
    a.mem_per_cpu(200);
    start_job(a);
    EXPECT_EQ(detail(1, 0).mem_mb, 800u);
    Job b(2, 2);
    b.mem_per_cpu(200);
    EXPECT_EQ(test(b), DROVER_EBUSY);
    Job c(3, 1);
    c.mem_per_cpu(200);
    EXPECT_EQ(start_job(c), (Nodes{0}));
    Job d(4, 8);
    d.mem_per_cpu(200); // 1600 MB: never
    EXPECT_EQ(test(d), DROVER_ENOSPC);
}

TEST_F(PluginSelectConsTres, WithoutAMemoryDefaultAJobHoldsAllTheNodesMemory) {
    start(plain(1, 8, 1000));
    Job a(1);
    start_job(a);
    EXPECT_EQ(detail(1, 0).mem_mb, 1000u);
    Job b(2);
    b.mem(1);
    EXPECT_EQ(test(b), DROVER_EBUSY);
}

TEST_F(PluginSelectConsTres, DefMemPerNodeApplies) {
    start(plain(1, 8, 1000), {{"defmempernode", "400"}});
    Job a(1, 3), b(2), c(3);
    start_job(a);
    EXPECT_EQ(detail(1, 0).mem_mb, 400u);
    start_job(b);
    EXPECT_EQ(test(c), DROVER_EBUSY);
}

TEST_F(PluginSelectConsTres, WithoutMemoryInTheModeMemoryOnlyBounds) {
    start(plain(1, 8, 1000), {{"selecttypeparameters", "CR_Core"}});
    Job a(1), b(2), c(3);
    a.mem(800);
    b.mem(800);
    c.mem(2000);
    start_job(a);
    start_job(b);
    EXPECT_EQ(detail(1, 0).mem_mb, 0u);
    EXPECT_EQ(test(c), DROVER_ENOSPC);
}

TEST_F(PluginSelectConsTres, ExclusiveTakesWholeNodesAndKeepsOthersOff) {
    auto specs = plain(2);
    specs[0].gres = "gpu:2";
    start(specs, {{"defmempercpu", "100"}});
    Job a(1);
    a.exclusive();
    EXPECT_EQ(start_job(a), (Nodes{0}));
    EXPECT_EQ(ops().job_cpus_on_node(state(), 1, 0), 8u);
    EXPECT_EQ(cpu_ids(1, 0), "0-7");
    EXPECT_EQ(gres(1, 0), "gpu:0-1");
    Job b(2);
    EXPECT_EQ(start_job(b), (Nodes{1})); // not beside the exclusive job
    Job c(3);
    c.exclusive();
    EXPECT_EQ(test(c), DROVER_EBUSY); // n1 is partly used
    fini(b);
    EXPECT_EQ(start_job(c), (Nodes{1}));
    Job d(4);
    EXPECT_EQ(test(d), DROVER_EBUSY);
}

TEST_F(PluginSelectConsTres, GpusGetDistinctIndexes) {
    auto specs = plain(1);
    specs[0].gres = "gpu:2,nic:1";
    start(specs, {{"defmempercpu", "100"}});
    Job a(1), b(2), c(3);
    a.with_gres("gpu:1");
    b.with_gres("gpu:1,nic:1");
    c.with_gres("gpu:1");
    start_job(a);
    start_job(b);
    EXPECT_EQ(gres(1, 0), "gpu:0");
    EXPECT_EQ(gres(2, 0), "gpu:1,nic:0");
    EXPECT_EQ(test(c), DROVER_EBUSY);
    Job d(4);
    d.with_gres("gpu:3");
    EXPECT_EQ(test(d), DROVER_ENOSPC);
    EXPECT_NE(std::string(err_.text).find("3 gpu"), std::string::npos) << err_.text;
    Job e(5); // no GPU asked: runs beside them
    EXPECT_EQ(start_job(e), (Nodes{0}));
    EXPECT_EQ(gres(5, 0), "");
    fini(a);
    EXPECT_EQ(start_job(c), (Nodes{0}));
    EXPECT_EQ(gres(3, 0), "gpu:0");
}

TEST_F(PluginSelectConsTres, TypedGpusAndGpuOptions) {
    auto specs = plain(2);
    specs[0].gres = "gpu:a100:2,gpu:v100:2";
    specs[1].gres = "gpu:v100:1";
    start(specs, {{"defmempercpu", "100"}});
    Job a(1), b(2);
    a.with_gres("gpu:v100:1");
    b.with_gres("gpu:v100:1");
    EXPECT_EQ(start_job(a), (Nodes{0}));
    EXPECT_EQ(gres(1, 0), "gpu:2"); // the v100s are gpu 2-3 on n0
    EXPECT_EQ(start_job(b), (Nodes{0}));
    EXPECT_EQ(gres(2, 0), "gpu:3");
    Job c(3, 2);
    c.v.gpus_per_task = 1; // 2 GPUs of any type
    EXPECT_EQ(start_job(c), (Nodes{0}));
    EXPECT_EQ(gres(3, 0), "gpu:0-1");
    Job d(4);
    d.v.gpus_per_node = 1;
    EXPECT_EQ(start_job(d), (Nodes{1}));
    EXPECT_EQ(gres(4, 1), "gpu:0");
    Job e(5);
    e.v.gpus = 1;
    EXPECT_EQ(test(e), DROVER_EBUSY);
    Job f(6);
    f.with_gres("gpu:h100:1");
    EXPECT_EQ(test(f), DROVER_ENOSPC);
}

TEST_F(PluginSelectConsTres, GpusOverTheJobAreSpreadOverItsNodes) {
    auto specs = plain(3);
    for (auto &s : specs) s.gres = "gpu:2";
    start(specs, {{"defmempercpu", "100"}});
    Job a(1, 2);
    a.v.gpus = 3;
    Nodes picked = start_job(a);
    ASSERT_EQ(picked, (Nodes{0, 1}));
    EXPECT_EQ(gres(1, 0), "gpu:0-1");
    EXPECT_EQ(gres(1, 1), "gpu:0");
    Job b(2);
    b.v.gpus = 7;
    EXPECT_EQ(test(b), DROVER_ENOSPC);
}

TEST_F(PluginSelectConsTres, ImpossibleRequestsAreNoSpace) {
    auto specs = plain(2);
    specs[0].features = "a";
    specs[1].gres = "gpu:4";
    start(specs, {{"defmempercpu", "100"}});
    Job gpus(1);
    gpus.with_gres("gpu:5");
    EXPECT_EQ(test(gpus), DROVER_ENOSPC);
    Job feature(2);
    feature.with_constraint("a&zzz");
    EXPECT_EQ(test(feature), DROVER_ENOSPC);
    EXPECT_NE(std::string(err_.text).find("'zzz'"), std::string::npos) << err_.text;
    Job per_node(3, 12);
    per_node.per_node(12); // 12 CPUs on a node of 8
    EXPECT_EQ(test(per_node), DROVER_ENOSPC);
    EXPECT_EQ(test(per_node, nullptr, DROVER_SELECT_TEST_ONLY), DROVER_ENOSPC);
    EXPECT_NE(std::string(err_.text).find("12 CPU(s)"), std::string::npos) << err_.text;
    Job ok(4, 12);
    ok.per_node(6); // 6 + 6
    Nodes picked;
    EXPECT_EQ(test(ok, &picked), DROVER_OK) << err_.text;
    EXPECT_EQ(picked, (Nodes{0, 1}));
    Job cpt(5, 1);
    cpt.cpt(9);
    EXPECT_EQ(test(cpt), DROVER_ENOSPC);
    Job bad_gres(6);
    bad_gres.with_gres("gpu:x:y:z");
    EXPECT_EQ(test(bad_gres), DROVER_ENOSPC);
    Job bad_constraint(7);
    bad_constraint.with_constraint("a&(b");
    EXPECT_EQ(test(bad_constraint), DROVER_ENOSPC);
    Job nodes(8);
    nodes.nodes(3);
    EXPECT_EQ(test(nodes), DROVER_ENOSPC);
    Job tmp(9);
    tmp.v.tmp_disk_mb = 5000;
    EXPECT_EQ(test(tmp), DROVER_ENOSPC);
    EXPECT_NE(std::string(err_.text).find("TmpDisk"), std::string::npos) << err_.text;
}

TEST_F(PluginSelectConsTres, ConstraintsMatchFeatures) {
    auto specs = plain(4);
    specs[0].features = "a";
    specs[1].features = "b";
    specs[2].features = "a,b";
    specs[3].features = "c";
    start(specs, {{"defmempercpu", "100"}});
    Nodes picked;
    Job both(1);
    both.with_constraint("a&b");
    EXPECT_EQ(test(both, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{2}));
    Job either(2);
    either.with_constraint("b|c").nodes(2);
    EXPECT_EQ(test(either, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{1, 2}));
    Job grouped(3);
    grouped.with_constraint("(a|c)&b");
    EXPECT_EQ(test(grouped, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{2}));
    Job same(4);
    same.with_constraint("[c|a]").nodes(2); // two c nodes do not exist: both with a
    EXPECT_EQ(test(same, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{0, 2}));
    Job mixed(5);
    mixed.with_constraint("a|c").nodes(3);
    EXPECT_EQ(test(mixed, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{0, 2, 3}));
    Job counted(6);
    counted.with_constraint("c*1").nodes(2);
    EXPECT_EQ(test(counted, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{0, 3}));
    Job too_many(7);
    too_many.with_constraint("c*2");
    EXPECT_EQ(test(too_many), DROVER_ENOSPC);
    Job nobody(8);
    nobody.with_constraint("[a|c]").nodes(3);
    EXPECT_EQ(test(nobody), DROVER_ENOSPC);
}

TEST_F(PluginSelectConsTres, RequiredAndExcludedNodes) {
    start(plain(4), {{"defmempercpu", "100"}});
    Nodes picked;
    Job req(1);
    req.require(4, {3});
    EXPECT_EQ(test(req, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{3}));
    Job req2(2);
    req2.require(4, {1, 3}); // two required nodes make two nodes, whatever min_nodes says
    EXPECT_EQ(test(req2, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{1, 3}));
    Job req_more(3);
    req_more.require(4, {3}).nodes(2);
    EXPECT_EQ(test(req_more, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{0, 3}));
    Job exc(4);
    exc.exclude(4, {0, 1});
    EXPECT_EQ(test(exc, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{2}));
    Job all_out(5);
    all_out.exclude(4, {0, 1, 2, 3});
    EXPECT_EQ(test(all_out), DROVER_ENOSPC);
    Job conflict(6);
    conflict.require(4, {2}).exclude(4, {2});
    EXPECT_EQ(test(conflict), DROVER_ENOSPC);
    Job too_few(7);
    too_few.require(4, {0, 1, 2}).nodes(1, 2);
    EXPECT_EQ(test(too_few), DROVER_ENOSPC);
    Bits usable(4, {0, 1});
    EXPECT_EQ(test(req, nullptr, DROVER_SELECT_RUN_NOW, &usable), DROVER_ENOSPC);
}

TEST_F(PluginSelectConsTres, ContiguousNodesHaveConsecutiveIndexes) {
    start(plain(4), {{"defmempercpu", "100"}});
    Job hold(1, 8);
    begin(hold, {1});
    Nodes picked;
    Job spread(2, 2);
    spread.nodes(2);
    EXPECT_EQ(test(spread, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{0, 2}));
    Job contig(3, 2);
    contig.nodes(2).contiguous();
    EXPECT_EQ(test(contig, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{2, 3}));
    Job three(4, 3);
    three.nodes(3).contiguous();
    EXPECT_EQ(test(three), DROVER_EBUSY);
    Job five(5, 5);
    five.nodes(5).contiguous();
    EXPECT_EQ(test(five), DROVER_ENOSPC);
}

TEST_F(PluginSelectConsTres, LowestWeightFirst) {
    auto specs = plain(4);
    specs[0].weight = 10;
    specs[1].weight = 5;
    specs[2].weight = 1;
    specs[3].weight = 1;
    specs[3].cpus = 4;
    start(specs, {{"defmempercpu", "100"}});
    Nodes picked;
    Job one(1, 4);
    EXPECT_EQ(test(one, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{3})); // lightest, and the best fit among the lightest
    Job two(2, 10);
    EXPECT_EQ(test(two, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{2, 3})); // the two light nodes hold 12 CPUs
    Job three(3, 14);
    EXPECT_EQ(test(three, &picked), DROVER_OK);
    EXPECT_EQ(picked, (Nodes{1, 2, 3})); // weight 5 before weight 10
}

TEST_F(PluginSelectConsTres, JobFiniFrees) {
    start(plain(1, 8, 1000), {{"defmempercpu", "100"}});
    Job a(1, 8), b(2, 4);
    b.with_gres("");
    start_job(a);
    EXPECT_EQ(test(b), DROVER_EBUSY);
    fini(a);
    EXPECT_EQ(ops().job_cpus_on_node(state(), 1, 0), 0u);
    int rc = 0;
    detail(1, 0, &rc);
    EXPECT_EQ(rc, DROVER_ENOENT);
    EXPECT_EQ(start_job(b), (Nodes{0}));
    EXPECT_EQ(cpu_ids(2, 0), "0-3");
    fini(a); // twice: nothing more to free
    Job c(3, 4);
    EXPECT_EQ(start_job(c), (Nodes{0}));
    EXPECT_EQ(cpu_ids(3, 0), "4-7");
}

TEST_F(PluginSelectConsTres, ReplayAfterNodeInitRebuildsTheSameAllocations) {
    auto specs = plain(2);
    specs[0].gres = "gpu:4";
    specs[1].gres = "gpu:4";
    start(specs, {{"defmempercpu", "100"}});
    Job a(1, 3), b(2, 2), c(3, 5), d(4, 6);
    b.with_gres("gpu:2");
    c.with_gres("gpu:1");
    d.nodes(2);
    std::vector<Job *> jobs{&a, &b, &c, &d};
    std::map<std::pair<uint32_t, uint32_t>, std::string> before;
    std::map<uint32_t, Nodes> where;
    for (Job *j : jobs) where[j->v.job_id] = start_job(*j);
    for (Job *j : jobs)
        for (uint32_t node : where[j->v.job_id])
            before[{j->v.job_id, node}] = cpu_ids(j->v.job_id, node) + "|" +
                                          gres(j->v.job_id, node) + "|" +
                                          std::to_string(detail(j->v.job_id, node).mem_mb);

    init_nodes(); // a restart: the plugin forgets, then the core replays
    EXPECT_EQ(ops().job_cpus_on_node(state(), 2, 0), 0u);
    for (Job *j : jobs) begin(*j, where[j->v.job_id]);
    for (const auto &[key, want] : before)
        EXPECT_EQ(cpu_ids(key.first, key.second) + "|" + gres(key.first, key.second) + "|" +
                      std::to_string(detail(key.first, key.second).mem_mb),
                  want)
            << "job " << key.first << " node " << key.second;
}

TEST_F(PluginSelectConsTres, CoreModeAllocatesWholeCoresCpuModeSingleCpus) {
    auto specs = plain(1);
    specs[0].threads_per_core = 2;
    start(specs, {{"selecttypeparameters", "CR_Core"}});
    Job a(1), b(2), c(3, 3);
    start_job(a);
    start_job(b);
    EXPECT_EQ(cpu_ids(1, 0), "0-1");
    EXPECT_EQ(cpu_ids(2, 0), "2-3");
    EXPECT_EQ(ops().job_cpus_on_node(state(), 1, 0), 2u);
    start_job(c); // 3 CPUs -> 2 cores
    EXPECT_EQ(cpu_ids(3, 0), "4-7");
    Job d(4);
    EXPECT_EQ(test(d), DROVER_EBUSY);
}

TEST_F(PluginSelectConsTres, CpuModeAllocatesSingleThreads) {
    auto specs = plain(1);
    specs[0].threads_per_core = 2;
    start(specs, {{"selecttypeparameters", "CR_CPU"}});
    Job a(1), b(2), c(3, 3);
    start_job(a);
    start_job(b);
    EXPECT_EQ(cpu_ids(1, 0), "0");
    EXPECT_EQ(cpu_ids(2, 0), "1");
    EXPECT_EQ(ops().job_cpus_on_node(state(), 1, 0), 1u);
    start_job(c);
    EXPECT_EQ(cpu_ids(3, 0), "2-4");
}

TEST_F(PluginSelectConsTres, OversubscribedJobsShareCpusButNotMemory) {
    start(plain(1, 4, 1000), {{"defmempercpu", "100"}});
    Job a(1, 4), b(2, 4), c(3, 4);
    a.share(DROVER_SHARE_OVERSUB);
    b.share(DROVER_SHARE_OVERSUB);
    c.share(DROVER_SHARE_OVERSUB).mem(500);
    start_job(a);
    start_job(b);
    EXPECT_EQ(cpu_ids(2, 0), "0-3");
    EXPECT_EQ(test(c), DROVER_EBUSY); // 400 + 400 held, 500 more does not fit
    Job d(4);
    EXPECT_EQ(test(d), DROVER_EBUSY); // a job that does not share CPUs finds none free
}

TEST_F(PluginSelectConsTres, AllocDetailOfAJobNotOnTheNode) {
    start(plain(2), {{"defmempercpu", "100"}});
    Job a(1);
    start_job(a);
    int rc = 0;
    detail(1, 1, &rc);
    EXPECT_EQ(rc, DROVER_ENOENT);
    detail(9, 0, &rc);
    EXPECT_EQ(rc, DROVER_ENOENT);
    drover_node_alloc d = detail(1, 0);
    EXPECT_EQ(d.cpus, 1u);
    EXPECT_EQ(d.mem_mb, 100u);
    EXPECT_STREQ(d.cpu_ids, "0");
    EXPECT_STREQ(d.gres, "");
}

// scontrol suspend: the suspended job's CPUs go to others, its memory and GPUs stay held; on
// resume it holds its CPUs again, shared with the job that took them (as Slurm's cons_tres).
TEST_F(PluginSelectConsTres, ASuspendedJobGivesUpItsCpusButNotItsMemory) {
    auto specs = plain(1, 4, 1000);
    specs[0].gres = "gpu:1";
    start(specs, {{"defmempercpu", "100"}});
    Job a(1, 4), b(2, 4), c(3, 4);
    a.with_gres("gpu:1");
    c.mem(700);
    start_job(a);
    EXPECT_EQ(test(b), DROVER_EBUSY);
    drover_error err{};
    ASSERT_NE(ops().job_suspend, nullptr);
    ASSERT_EQ(ops().job_suspend(state(), a.view(), &err), DROVER_OK) << err.text;
    EXPECT_EQ(test(c), DROVER_EBUSY) << "its 400 MB are still held: 700 more do not fit";
    EXPECT_EQ(start_job(b), (Nodes{0})) << "its CPUs are free";
    EXPECT_EQ(cpu_ids(2, 0), "0-3");
    EXPECT_EQ(gres(1, 0), "gpu:0") << "the suspended job keeps its GPU";
    ASSERT_EQ(ops().job_resume(state(), a.view(), &err), DROVER_OK) << err.text;
    EXPECT_EQ(cpu_ids(1, 0), "0-3") << "back on its own CPUs";
    fini(b);
    Job d(4, 1);
    EXPECT_EQ(test(d), DROVER_EBUSY) << "the resumed job holds its CPUs again";
    fini(a);
    EXPECT_EQ(start_job(d), (Nodes{0}));
    // A job ended while suspended gives back only what it still held.
    Job e(5, 3);
    start_job(e);
    ASSERT_EQ(ops().job_suspend(state(), e.view(), &err), DROVER_OK);
    Job f(6, 3);
    EXPECT_EQ(start_job(f), (Nodes{0}));
    fini(e);
    Job g(7, 1);
    EXPECT_EQ(test(g), DROVER_EBUSY) << "d and f hold all four CPUs: none was given back twice";
}

} // namespace
} // namespace drover::plugin::test
