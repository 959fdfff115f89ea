// sched_backfill_test.cpp - sched/backfill through its operations table, against a fake core:
// a small node table, running jobs with end times, and a "select plugin" that gives whole nodes
// (select/linear) or CPUs on shared nodes (select/cons_tres) within the nodes it is allowed.
#include <deque>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "../../../plugins/sched/backfill/blocked.hpp"
#include "../../../plugins/sched/backfill/params.hpp"
#include "../../../plugins/sched/backfill/timeline.hpp"
#include "test_support.hpp"

namespace {

// One job of the fake core: its view, the strings the view points into, what it holds.
struct FakeJob {
    drover_job_view view{};
    std::string partition = "batch";
    std::vector<uint64_t> required;
    std::map<uint32_t, uint32_t> held; // node -> CPUs
};

} // namespace

// The opaque pass handle of drover/sched.h, defined here as the test's fake core.
struct drover_sched_pass {
    int64_t now = 1'000'000;
    std::string params;
    bool whole = true; // the fake select plugin gives whole nodes
    std::vector<drover_node_view> nodes;
    std::set<uint32_t> unusable; // down or drained nodes
    std::deque<FakeJob> running;
    std::deque<FakeJob> pending;     // in submit order; views stay put for the pass
    std::map<uint32_t, int> answers; // forced answer of try_start / try_start_on
    std::vector<uint32_t> tried;     // try_start calls (the strict part)
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> offered; // try_start_on calls
    std::vector<uint32_t> started;                                   // jobs started, in order
    std::map<uint32_t, std::pair<int64_t, std::vector<uint32_t>>> expected;
    // Reservations' windows, barring every job from their nodes from start to end (0: ever).
    struct Window {
        std::vector<uint32_t> nodes;
        int64_t start, end;
    };
    std::vector<Window> windows;
};

namespace drover::plugin::test {
namespace {

using Ids = std::vector<uint32_t>;

bool bit(const uint64_t *words, uint32_t i) {
    return (words[i / 64] >> (i % 64)) & 1u;
}

std::vector<uint32_t> indexes(const uint64_t *words, uint32_t nbits) {
    std::vector<uint32_t> out;
    if (words)
        for (uint32_t i = 0; i < nbits; ++i)
            if (bit(words, i)) out.push_back(i);
    return out;
}

FakeJob *find_pending(drover_sched_pass *p, uint32_t id) {
    for (auto &j : p->pending)
        if (j.view.job_id == id) return &j;
    return nullptr;
}

// The fake select plugin: whole free nodes, or ceil(tasks / nodes) * cpus_per_task free CPUs on
// each of min_nodes nodes; required nodes first; only nodes in allowed (all when NULL).
int fake_start(drover_sched_pass *p, uint32_t id, const uint64_t *allowed) {
    FakeJob *j = find_pending(p, id);
    if (!j) return DROVER_ENOENT;
    if (std::find(p->started.begin(), p->started.end(), id) != p->started.end())
        return DROVER_EPERM;
    if (auto it = p->answers.find(id); it != p->answers.end()) return it->second;
    const uint32_t n = static_cast<uint32_t>(p->nodes.size());
    std::vector<uint32_t> used(n, 0);
    for (const auto &r : p->running)
        for (auto [node, c] : r.held) used[node] += c;
    const drover_job_view &v = j->view;
    const uint32_t nodes = std::max<uint32_t>(v.min_nodes, 1);
    const uint64_t total =
        uint64_t{std::max<uint32_t>(v.num_tasks, 1)} * std::max<uint32_t>(v.cpus_per_task, 1);
    const bool whole = p->whole || v.exclusive;
    const uint32_t per = static_cast<uint32_t>((total + nodes - 1) / nodes);
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < n; ++i)
        if (v.required_nodes.words && bit(v.required_nodes.words, i)) order.push_back(i);
    for (uint32_t i = 0; i < n; ++i)
        if (!(v.required_nodes.words && bit(v.required_nodes.words, i))) order.push_back(i);
    std::map<uint32_t, uint32_t> held;
    uint64_t cpus = 0;
    const int64_t end = v.time_limit_min == DROVER_INFINITE ? 0 : p->now + v.time_limit_min * 60;
    auto barred = [&](uint32_t i) { // as the core: a window it would run into
        for (const auto &w : p->windows)
            if (std::count(w.nodes.begin(), w.nodes.end(), i) && (end == 0 || w.start < end) &&
                (w.end == 0 || p->now < w.end))
                return true;
        return false;
    };
    for (uint32_t i : order) {
        if (held.size() >= nodes && (!whole || cpus >= total)) break;
        if (p->unusable.count(i) || (allowed && !bit(allowed, i)) || barred(i)) continue;
        const uint32_t free = p->nodes[i].cpus - used[i];
        if (whole ? used[i] != 0 : free < per) continue;
        held[i] = whole ? p->nodes[i].cpus : per;
        cpus += held[i];
    }
    if (held.size() < nodes || (whole && cpus < total)) return DROVER_EBUSY;
    if (v.required_nodes.words)
        for (uint32_t i : indexes(v.required_nodes.words, v.required_nodes.nbits))
            if (!held.count(i)) return DROVER_EBUSY;
    FakeJob r = *j;
    r.held = held;
    r.view.state = DROVER_JOB_RUNNING;
    r.view.start_time = p->now;
    r.view.end_time = v.time_limit_min == DROVER_INFINITE ? 0 : p->now + v.time_limit_min * 60;
    p->running.push_back(std::move(r));
    p->running.back().view.partition = str(p->running.back().partition);
    p->started.push_back(id);
    return DROVER_OK;
}

uint32_t fake_pending_count(drover_sched_pass *p) {
    return uint32_t(p->pending.size());
}
const drover_job_view *fake_pending_job(drover_sched_pass *p, uint32_t i) {
    return i < p->pending.size() ? &p->pending[i].view : nullptr;
}
int fake_try_start(drover_sched_pass *p, uint32_t id) {
    p->tried.push_back(id);
    return fake_start(p, id, nullptr);
}
int64_t fake_now(drover_sched_pass *p) {
    return p->now;
}
uint32_t fake_node_count(drover_sched_pass *p) {
    return uint32_t(p->nodes.size());
}
const drover_node_view *fake_node(drover_sched_pass *p, uint32_t i) {
    return i < p->nodes.size() ? &p->nodes[i] : nullptr;
}
uint32_t fake_running_count(drover_sched_pass *p) {
    return uint32_t(p->running.size());
}
const drover_job_view *fake_running_job(drover_sched_pass *p, uint32_t i) {
    return i < p->running.size() ? &p->running[i].view : nullptr;
}
int fake_job_nodes(drover_sched_pass *p, uint32_t id, drover_bitmap *nodes, uint32_t *cpus) {
    for (const auto &r : p->running) {
        if (r.view.job_id != id) continue;
        for (auto [node, c] : r.held) {
            nodes->words[node / 64] |= uint64_t{1} << (node % 64);
            if (cpus) cpus[node] = c;
        }
        return DROVER_OK;
    }
    return DROVER_ENOENT;
}
int fake_usable_nodes(drover_sched_pass *p, uint32_t id, drover_bitmap *out) {
    const FakeJob *j = find_pending(p, id);
    if (!j) return DROVER_ENOENT;
    for (uint32_t i = 0; i < p->nodes.size(); ++i) {
        const bool excluded = j->view.excluded_nodes.words && bit(j->view.excluded_nodes.words, i);
        if (!p->unusable.count(i) && !excluded) out->words[i / 64] |= uint64_t{1} << (i % 64);
    }
    return DROVER_OK;
}
int fake_try_start_on(drover_sched_pass *p, uint32_t id, drover_bitmap_view allowed) {
    p->offered.emplace_back(id, indexes(allowed.words, allowed.nbits));
    return fake_start(p, id, allowed.words);
}
void fake_set_expected_start(drover_sched_pass *p, uint32_t id, int64_t when,
                             drover_bitmap_view nodes) {
    p->expected[id] = {when, indexes(nodes.words, nodes.nbits)};
}
drover_str fake_parameters(drover_sched_pass *p) {
    return str(p->params);
}
uint32_t fake_blocked_count(drover_sched_pass *p, uint32_t) {
    return uint32_t(p->windows.size());
}
int fake_blocked_window(drover_sched_pass *p, uint32_t, uint32_t i, drover_bitmap *nodes,
                        int64_t *start, int64_t *end) {
    if (i >= p->windows.size()) return DROVER_ENOENT;
    std::fill(nodes->words, nodes->words + (nodes->nbits + 63) / 64, 0);
    for (uint32_t n : p->windows[i].nodes) nodes->words[n / 64] |= uint64_t{1} << (n % 64);
    *start = p->windows[i].start;
    *end = p->windows[i].end;
    return DROVER_OK;
}

const drover_sched_host kFakeHost = {sizeof(drover_sched_host),
                                     fake_pending_count,
                                     fake_pending_job,
                                     fake_try_start,
                                     fake_now,
                                     fake_node_count,
                                     fake_node,
                                     fake_running_count,
                                     fake_running_job,
                                     fake_job_nodes,
                                     fake_usable_nodes,
                                     fake_try_start_on,
                                     fake_set_expected_start,
                                     fake_parameters,
                                     fake_blocked_count,
                                     fake_blocked_window};

// What a test job asks for.
struct Spec {
    uint32_t id;
    uint32_t priority;
    uint32_t nodes = 1;
    uint32_t limit_min = 60;
    uint32_t tasks = 0; // 0: one per node
    uint32_t cpus_per_task = 1;
};

class PluginSchedBackfill : public ::testing::Test {
  protected:
    void SetUp() override { load("select/linear"); }

    void load(const std::string &select) {
        set_.reset();
        conf_ = real_plugin_config();
        conf_.raw["selecttype"] = select;
        set_ = std::make_unique<PluginSet>(conf_, "ctld");
        set_->load("sched/backfill");
        pass_.whole = select == "select/linear";
    }

    void nodes(uint32_t n, uint32_t cpus) {
        names_.clear();
        names_.reserve(n);
        for (uint32_t i = 0; i < n; ++i) {
            names_.push_back("n" + std::to_string(i));
            drover_node_view v{};
            v.struct_size = sizeof v;
            v.name = str(names_.back());
            v.cpus = cpus;
            v.weight = 1;
            v.state = DROVER_NODE_IDLE;
            pass_.nodes.push_back(v);
        }
    }

    static drover_job_view view_of(const Spec &s) {
        drover_job_view v{};
        v.struct_size = sizeof v;
        v.job_id = s.id;
        v.priority = s.priority;
        v.min_nodes = s.nodes;
        v.max_nodes = DROVER_INFINITE;
        v.num_tasks = s.tasks ? s.tasks : s.nodes;
        v.cpus_per_task = s.cpus_per_task;
        v.time_limit_min = s.limit_min;
        return v;
    }

    // A job running on the given nodes since `ago` seconds (all their CPUs unless cpus is set).
    void run(uint32_t id, std::vector<uint32_t> on, uint32_t limit_min, int64_t ago,
             uint32_t cpus = 0) {
        FakeJob j;
        j.view = view_of({id, 1, uint32_t(on.size()), limit_min});
        j.view.state = DROVER_JOB_RUNNING;
        j.view.start_time = pass_.now - ago;
        j.view.end_time = limit_min == DROVER_INFINITE ? 0 : j.view.start_time + limit_min * 60;
        for (uint32_t i : on) j.held[i] = cpus ? cpus : pass_.nodes[i].cpus;
        pass_.running.push_back(std::move(j));
        pass_.running.back().view.partition = str(pass_.running.back().partition);
    }

    FakeJob &pend(const Spec &s) {
        FakeJob j;
        j.view = view_of(s);
        pass_.pending.push_back(std::move(j));
        FakeJob &p = pass_.pending.back();
        p.view.partition = str(p.partition);
        return p;
    }

    int schedule() {
        drover_error err{};
        return set_->sched().ops.schedule(set_->sched().state, &kFakeHost, &pass_, &err);
    }

    // The next pass, `later` seconds on: started jobs leave the queue and the logs are cleared.
    void next_pass(int64_t later) {
        std::deque<FakeJob> still;
        for (auto &j : pass_.pending)
            if (std::find(pass_.started.begin(), pass_.started.end(), j.view.job_id) ==
                pass_.started.end())
                still.push_back(std::move(j));
        pass_.pending = std::move(still);
        for (auto &j : pass_.pending) j.view.partition = str(j.partition);
        pass_.now += later;
        pass_.tried.clear();
        pass_.offered.clear();
        pass_.started.clear();
        pass_.expected.clear();
    }

    bool offered_nodes(uint32_t id) const {
        for (const auto &[job, nodes] : pass_.offered)
            if (job == id && !nodes.empty()) return true;
        return false;
    }

    // The classic case: two single-CPU nodes, A on n0 for another 110 s, B wants both.
    void two_nodes_one_busy(const std::string &params = "bf_interval=1") {
        pass_.params = params;
        nodes(2, 1);
        run(100, {0}, 2, 10);  // A: ends at now + 110
        pend({101, 30, 2, 5}); // B: both nodes, 5 min
    }

    Config conf_;
    std::unique_ptr<PluginSet> set_;
    std::vector<std::string> names_;
    drover_sched_pass pass_;
};

TEST_F(PluginSchedBackfill, StrictPartStartsByPriorityThenJobId) {
    nodes(4, 1);
    for (const Spec &s : {Spec{5, 10}, Spec{3, 20}, Spec{4, 10}, Spec{1, 5}}) pend(s);
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.tried, (Ids{3, 4, 5, 1}));
    EXPECT_EQ(pass_.started, (Ids{3, 4, 5, 1}));
    EXPECT_TRUE(pass_.offered.empty()); // nothing was left to plan
    EXPECT_EQ(set_->sched().ops.job_priority, nullptr);
}

TEST_F(PluginSchedBackfill, StrictPartStopsAPartitionAtItsFirstBusyJob) {
    nodes(4, 1);
    pass_.params = "bf_interval=1";
    for (const Spec &s : {Spec{1, 50}, Spec{2, 40}, Spec{3, 30}, Spec{4, 20}, Spec{5, 10}}) pend(s);
    pass_.pending[2].partition = "debug";
    pass_.pending[2].view.partition = str(pass_.pending[2].partition);
    pass_.pending[4].partition = "debug";
    pass_.pending[4].view.partition = str(pass_.pending[4].partition);
    pass_.answers[2] = DROVER_EBUSY;
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.tried, (Ids{1, 2, 3, 5})); // 4 waits behind 2 in batch; debug goes on
}

TEST_F(PluginSchedBackfill, AShortJobStartsInTheGapBeforeTheWideJob) {
    two_nodes_one_busy();
    pend({102, 20, 1, 1});  // C: 1 node, 1 min: ends before B can start
    pend({103, 10, 1, 10}); // D: 1 node, 10 min: would delay B
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.tried, (Ids{101})); // the strict part stops at B
    EXPECT_EQ(pass_.started, (Ids{102}));
    EXPECT_EQ(pass_.running.back().held, (std::map<uint32_t, uint32_t>{{1, 1}}));
    ASSERT_TRUE(pass_.expected.count(101));
    EXPECT_EQ(pass_.expected[101].first, pass_.now + 110); // when A ends
    EXPECT_EQ(pass_.expected[101].second, (Ids{0, 1}));
    EXPECT_FALSE(offered_nodes(103));
    ASSERT_TRUE(pass_.expected.count(103));
    // After B: B starts in bucket 2 (A's end rounded up to 60 s) and holds 5 buckets.
    EXPECT_EQ(pass_.expected[103].first, pass_.now + 7 * 60);
}

TEST_F(PluginSchedBackfill, CountsItsCyclesForSdiag) {
    const auto &ops = set_->sched().ops;
    ASSERT_NE(ops.stats, nullptr);
    drover_sched_stats st{};
    st.struct_size = sizeof st;
    ASSERT_EQ(ops.stats(set_->sched().state, 0, &st), DROVER_OK);
    EXPECT_EQ(st.cycles, 0u);
    EXPECT_EQ(st.last_cycle_when, 0);

    two_nodes_one_busy();
    pend({102, 20, 1, 1});  // C: backfilled
    pend({103, 10, 1, 10}); // D: reserved after B
    ASSERT_EQ(schedule(), DROVER_OK);
    st = drover_sched_stats{};
    st.struct_size = sizeof st;
    ASSERT_EQ(ops.stats(set_->sched().state, 0, &st), DROVER_OK);
    EXPECT_EQ(st.struct_size, sizeof st);
    EXPECT_EQ(st.cycles, 1u);
    EXPECT_EQ(st.backfilled_jobs, 1u);
    EXPECT_EQ(st.backfilled_jobs_since_reset, 1u);
    EXPECT_EQ(st.last_cycle_when, pass_.now);
    EXPECT_EQ(st.last_queue_length, 3u);
    EXPECT_EQ(st.last_depth, 3u);     // B, C, D
    EXPECT_EQ(st.last_depth_try, 3u); // all three planned
    EXPECT_GT(st.last_table_size, 0u);
    EXPECT_EQ(st.depth_sum, 3u);
    EXPECT_EQ(st.max_cycle_usec, st.last_cycle_usec);

    // sdiag -r: the counters since the last reset start again, the total since start stays.
    ASSERT_EQ(ops.stats(set_->sched().state, 1, &st), DROVER_OK);
    EXPECT_EQ(st.cycles, 1u); // what it was before the reset
    ASSERT_EQ(ops.stats(set_->sched().state, 0, &st), DROVER_OK);
    EXPECT_EQ(st.cycles, 0u);
    EXPECT_EQ(st.backfilled_jobs_since_reset, 0u);
    EXPECT_EQ(st.backfilled_jobs, 1u);
    EXPECT_EQ(st.depth_sum, 0u);

    // A core with a shorter struct gets only what fits.
    drover_sched_stats short_st{};
    short_st.struct_size = offsetof(drover_sched_stats, backfilled_jobs_since_reset);
    short_st.cycles = 77;
    ASSERT_EQ(ops.stats(set_->sched().state, 0, &short_st), DROVER_OK);
    EXPECT_EQ(short_st.backfilled_jobs, 1u);
    EXPECT_EQ(short_st.cycles, 77u); // past the end it gave: untouched
}

TEST_F(PluginSchedBackfill, AJobThatWouldDelayTheReservationWaits) {
    two_nodes_one_busy();
    pend({102, 20, 1, 3}); // 3 min: still running when B should start
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_TRUE(pass_.started.empty());
    EXPECT_FALSE(offered_nodes(102));
    EXPECT_EQ(pass_.expected[101].first, pass_.now + 110);
}

TEST_F(PluginSchedBackfill, StartedJobsTakeTheirPlaceInThePlan) {
    two_nodes_one_busy();
    pend({102, 20, 1, 1});
    pend({103, 15, 1, 1}); // fits the gap too, but 102 took the only free node
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.started, (Ids{102}));
    EXPECT_FALSE(offered_nodes(103));
}

TEST_F(PluginSchedBackfill, IneligibleJobsReserveNothing) {
    two_nodes_one_busy();
    pass_.answers[101] = DROVER_EPERM; // B is held back (dependency, begin time...)
    pend({103, 10, 1, 10});
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.started, (Ids{103}));
    EXPECT_FALSE(pass_.expected.count(101));
}

TEST_F(PluginSchedBackfill, IneligibleJobsFoundByTheProbeReserveNothing) {
    two_nodes_one_busy();
    pend({102, 25, 2, 5});             // also wide, never tried by the strict part
    pass_.answers[102] = DROVER_EPERM; // and not eligible
    pend({103, 10, 1, 10});
    ASSERT_EQ(schedule(), DROVER_OK);
    // 102 was asked with no node allowed, answered EPERM, and reserved nothing: D still waits
    // only for B.
    ASSERT_FALSE(pass_.offered.empty());
    EXPECT_EQ(pass_.offered.front(), (std::pair<uint32_t, std::vector<uint32_t>>{102, {}}));
    EXPECT_FALSE(pass_.expected.count(102));
    EXPECT_EQ(pass_.expected[103].first, pass_.now + 7 * 60);
}

TEST_F(PluginSchedBackfill, AnUnlimitedRunningJobHoldsItsNodeForEver) {
    pass_.params = "bf_interval=1";
    nodes(2, 1);
    run(100, {0}, DROVER_INFINITE, 10);
    pend({101, 30, 2, 5});
    pend({103, 10, 1, 10});
    ASSERT_EQ(schedule(), DROVER_OK);
    // B can never start while A runs: no reservation, no forecast, and D may use n1.
    ASSERT_TRUE(pass_.expected.count(101));
    EXPECT_EQ(pass_.expected[101].first, 0);
    EXPECT_EQ(pass_.started, (Ids{103}));
}

TEST_F(PluginSchedBackfill, AnUnlimitedPendingJobWaitsForAReservationThatNeverEnds) {
    two_nodes_one_busy();
    pend({102, 20, 1, DROVER_INFINITE});
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_TRUE(pass_.started.empty());
    EXPECT_EQ(pass_.expected[102].first, pass_.now + 7 * 60); // after B
}

TEST_F(PluginSchedBackfill, PlansAreSpacedByBfInterval) {
    two_nodes_one_busy("bf_interval=30");
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_TRUE(pass_.expected.count(101));
    next_pass(10);
    pend({102, 20, 1, 1});
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.tried, (Ids{101}));
    EXPECT_TRUE(pass_.offered.empty()); // no plan 10 s after the last one
    EXPECT_TRUE(pass_.started.empty());
    next_pass(21);
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.started, (Ids{102}));
}

TEST_F(PluginSchedBackfill, TheDefaultIntervalIsThirtySeconds) {
    two_nodes_one_busy("");
    ASSERT_EQ(schedule(), DROVER_OK);
    next_pass(29);
    pend({102, 20, 1, 1});
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_TRUE(pass_.started.empty());
    next_pass(1);
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.started, (Ids{102}));
}

TEST_F(PluginSchedBackfill, BfMaxJobTestBoundsTheQueueDepth) {
    two_nodes_one_busy("bf_interval=1,bf_max_job_test=1");
    pend({102, 20, 1, 1});
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_TRUE(pass_.started.empty()); // B was the one job examined
    EXPECT_TRUE(pass_.expected.count(101));
}

TEST_F(PluginSchedBackfill, AStartBeyondBfWindowReservesNothing) {
    two_nodes_one_busy("bf_interval=1,bf_window=1");
    pend({103, 10, 1, 10});
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.expected[101].first, 0); // B could start only after the window
    EXPECT_EQ(pass_.started, (Ids{103}));
}

TEST_F(PluginSchedBackfill, BfResolutionIsTheStepOfThePlan) {
    two_nodes_one_busy("bf_interval=1,bf_resolution=300");
    pend({102, 20, 1, 6}); // two 300 s steps: past A's end rounded to one step
    pend({103, 15, 1, 5}); // one step: fits
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.expected[101].first, pass_.now + 110);
    EXPECT_EQ(pass_.started, (Ids{103}));
}

TEST_F(PluginSchedBackfill, BfBusyNodesReservesNodesInUseFirst) {
    pass_.params = "bf_interval=1,bf_busy_nodes";
    nodes(3, 1);
    run(100, {2}, 2, 10);
    pend({101, 30, 3, 5});  // all three, after A
    pend({102, 20, 1, 60}); // one node in an hour: n2 after B... or n0 / n1 after B
    ASSERT_EQ(schedule(), DROVER_OK);
    // 102 cannot start now (B needs every node at A's end); its reservation prefers n2,
    // the node busy now, to idle n0.
    ASSERT_TRUE(pass_.expected.count(102));
    EXPECT_EQ(pass_.expected[102].second, (Ids{2}));
}

TEST_F(PluginSchedBackfill, WithoutBfBusyNodesReservationsGoByWeightThenIndex) {
    pass_.params = "bf_interval=1";
    nodes(3, 1);
    run(100, {2}, 2, 10);
    pend({101, 30, 3, 5});
    pend({102, 20, 1, 60});
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.expected[102].second, (Ids{0}));
}

TEST_F(PluginSchedBackfill, RequiredNodesAreHonoured) {
    two_nodes_one_busy();
    FakeJob &c = pend({102, 20, 1, 1});
    c.required = {1u}; // -w n0
    c.view.required_nodes = {c.required.data(), 2};
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_TRUE(pass_.started.empty()); // n1 is free but C wants n0
    EXPECT_EQ(pass_.expected[102].second, (Ids{0}));
}

TEST_F(PluginSchedBackfill, UnusableNodesAreNotPlanned) {
    two_nodes_one_busy();
    pass_.unusable.insert(1); // n1 drained: B can never get two nodes
    pend({102, 20, 1, 60});
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.expected[101].first, 0);
    EXPECT_TRUE(pass_.started.empty());
    EXPECT_EQ(pass_.expected[102].first, pass_.now + 110); // n0, after A
}

TEST_F(PluginSchedBackfill, AJobTheSelectPluginRefusesIsPlannedLater) {
    two_nodes_one_busy();
    pend({102, 20, 1, 1});
    pass_.answers[102] = DROVER_EBUSY; // memory or GPUs the plan does not see
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_TRUE(pass_.started.empty());
    ASSERT_TRUE(pass_.expected.count(102));
    EXPECT_GT(pass_.expected[102].first, pass_.now);
}

TEST_F(PluginSchedBackfill, SharedNodesArePlannedInCpus) {
    load("select/cons_tres");
    pass_.params = "bf_interval=1";
    nodes(1, 32);
    run(100, {0}, 2, 10, 16);  // 16 of 32 CPUs until now + 110
    pend({101, 30, 1, 5, 24}); // B: 24 CPUs, after R
    pend({102, 20, 1, 10, 8}); // C: 8 CPUs, 10 min: 24 + 8 still fit after R
    pend({103, 10, 1, 10, 4}); // D: 4 more would not
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.expected[101].first, pass_.now + 110);
    EXPECT_EQ(pass_.started, (Ids{102}));
    EXPECT_FALSE(offered_nodes(103));
}

TEST_F(PluginSchedBackfill, ExclusiveJobsNeedWholeSharedNodes) {
    load("select/cons_tres");
    pass_.params = "bf_interval=1";
    nodes(2, 4);
    run(100, {0}, 2, 10, 1);  // one CPU of n0
    pend({101, 30, 2, 5, 2}); // B: one CPU on each node, after nothing: starts now
    FakeJob &x = pend({102, 20, 1, 5, 1});
    x.view.exclusive = 1; // a whole node: n1 is partly taken by B now
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.started, (Ids{101}));
    ASSERT_TRUE(pass_.expected.count(102));
    EXPECT_EQ(pass_.expected[102].first, pass_.now + 300); // once B ends (5 min)
    EXPECT_EQ(pass_.expected[102].second.size(), 1u);
}

TEST_F(PluginSchedBackfill, AReservationAheadKeepsLongJobsOffItsNodeAndLetsShortOnesIn) {
    pass_.params = "bf_interval=1";
    nodes(2, 1);
    pass_.windows.push_back({{0}, pass_.now + 600, pass_.now + 4200}); // n0 from +10 to +70 min
    pend({1, 20, 1, 30});
    pend({2, 10, 1, 30});
    pend({3, 5, 1, 5});
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_EQ(pass_.tried, (Ids{1, 2})); // the strict part stops at 2
    EXPECT_EQ(pass_.running.front().held, (std::map<uint32_t, uint32_t>{{1, 1}}));
    // 2 would run into the reservation on n0: it waits for 1's end on n1.
    ASSERT_TRUE(pass_.expected.count(2));
    EXPECT_EQ(pass_.expected[2].first, pass_.now + 1800);
    EXPECT_EQ(pass_.expected[2].second, (Ids{1}));
    // 3 ends before the reservation begins: it starts on n0 now.
    EXPECT_EQ(pass_.started, (Ids{1, 3}));
    EXPECT_EQ(pass_.running.back().held, (std::map<uint32_t, uint32_t>{{0, 1}}));
}

TEST_F(PluginSchedBackfill, AJobIsPlannedAfterAReservationThatHoldsAllItNeeds) {
    pass_.params = "bf_interval=1";
    nodes(2, 1);
    pass_.windows.push_back({{0, 1}, pass_.now - 60, pass_.now + 1200}); // both, 20 more min
    pend({1, 10, 2, 10});
    ASSERT_EQ(schedule(), DROVER_OK);
    EXPECT_TRUE(pass_.started.empty());
    ASSERT_TRUE(pass_.expected.count(1));
    EXPECT_EQ(pass_.expected[1].first, pass_.now + 1200);
    EXPECT_EQ(pass_.expected[1].second, (Ids{0, 1}));
}

TEST(BackfillBlocked, StartsThatWouldRunIntoAStretchAreLeftOut) {
    drover_sched_pass p;
    p.windows.push_back({{0}, p.now + 600, p.now + 1200}); // buckets 10 to 20
    p.windows.push_back({{1}, p.now + 3000, 0});           // bucket 50 on, for good
    drover::backfill::Timeline tl;
    tl.reset({1, 1}, p.now, 60);
    const auto b = drover::backfill::Blocked::load(&kFakeHost, &p, 7, 2, tl);
    std::vector<std::pair<int32_t, int32_t>> got;
    auto keep = [&](int32_t lo, int32_t hi) { got.emplace_back(lo, hi); };
    b.for_each_allowed(0, 0, 100, 5, keep); // a 5-bucket job must end by 10 or start at 20
    EXPECT_EQ(got, (std::vector<std::pair<int32_t, int32_t>>{{0, 5}, {20, 100}}));
    got.clear();
    b.for_each_allowed(1, 0, 100, 5, keep);
    EXPECT_EQ(got, (std::vector<std::pair<int32_t, int32_t>>{{0, 45}}));
    got.clear();
    b.for_each_allowed(0, 0, 100, drover::backfill::kForever, keep); // never ends: after it
    EXPECT_EQ(got, (std::vector<std::pair<int32_t, int32_t>>{{20, 100}}));
    EXPECT_TRUE(b.clear(0, 0, 10));
    EXPECT_FALSE(b.clear(0, 9, 11));
    EXPECT_TRUE(b.clear(0, 20, drover::backfill::kForever));
    EXPECT_FALSE(b.clear(1, 60, 61));
    EXPECT_EQ(b.free_since(0, 20), p.now + 1200);
    EXPECT_EQ(b.free_since(0, 19), 0);
}

TEST_F(PluginSchedBackfill, AnEmptyQueueIsFine) {
    nodes(2, 1);
    EXPECT_EQ(schedule(), DROVER_OK);
    EXPECT_TRUE(pass_.tried.empty());
}

// The parts behind the ops table, directly.

TEST(BackfillParams, DefaultsAreSlurms) {
    std::vector<std::string> warnings;
    const auto p = backfill::parse_params("", &warnings);
    EXPECT_EQ(p.interval_s, 30u);
    EXPECT_EQ(p.max_job_test, 500u);
    EXPECT_EQ(p.window_min, 1440u);
    EXPECT_EQ(p.resolution_s, 60u);
    EXPECT_FALSE(p.busy_nodes);
    EXPECT_TRUE(warnings.empty());
}

TEST(BackfillParams, ReadsItsOptionsAndIgnoresOthers) {
    std::vector<std::string> warnings;
    const auto p = backfill::parse_params(
        "defer,bf_interval=5, bf_max_job_test=100,bf_window=2880,bf_resolution=300,"
        "bf_busy_nodes,bf_continue,default_queue_depth=50",
        &warnings);
    EXPECT_EQ(p.interval_s, 5u);
    EXPECT_EQ(p.max_job_test, 100u);
    EXPECT_EQ(p.window_min, 2880u);
    EXPECT_EQ(p.resolution_s, 300u);
    EXPECT_TRUE(p.busy_nodes);
    EXPECT_TRUE(p.continue_);
    EXPECT_TRUE(warnings.empty());
}

TEST(BackfillParams, BadValuesKeepTheDefaultAndSaySo) {
    std::vector<std::string> warnings;
    const auto p = backfill::parse_params("bf_interval=0,bf_window=lots,bf_resolution=", &warnings);
    EXPECT_EQ(p.interval_s, 30u);
    EXPECT_EQ(p.window_min, 1440u);
    EXPECT_EQ(p.resolution_s, 60u);
    ASSERT_EQ(warnings.size(), 3u);
    EXPECT_EQ(warnings[0], "SchedulerParameters bf_interval=0: expected a number from 1 to 10800, "
                           "keeping 30");
}

TEST(BackfillTimeline, UseAndReleaseAreSteps) {
    backfill::Timeline tl;
    tl.reset({8}, 1000, 60);
    tl.use(0, 0, 3, 6, 1150); // a running job until bucket 3 (real 1150)
    tl.use(0, 5, 9, 8, 1540); // a reservation
    EXPECT_EQ(tl.free_at(0, 0), 2);
    EXPECT_EQ(tl.free_at(0, 3), 8);
    EXPECT_EQ(tl.free_at(0, 5), 0);
    EXPECT_EQ(tl.free_at(0, 9), 8);
    EXPECT_EQ(tl.min_free(0, 2, 6), 0);
    EXPECT_EQ(tl.min_free(0, 3, 5), 8);
    std::vector<backfill::Run> runs;
    tl.for_each_run(0, 4, 0, [&](const backfill::Run &r) { runs.push_back(r); });
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].from, 3);
    EXPECT_EQ(runs[0].to, 5);
    EXPECT_EQ(runs[0].real, 1150);
    EXPECT_EQ(runs[1].from, 9);
    EXPECT_EQ(runs[1].to, backfill::kForever);
}

TEST(BackfillTimeline, BucketsRoundTowardsLater) {
    backfill::Timeline tl;
    tl.reset({1}, 1000, 60);
    EXPECT_EQ(tl.release_bucket(1001), 1);
    EXPECT_EQ(tl.release_bucket(1060), 1);
    EXPECT_EQ(tl.release_bucket(1061), 2);
    EXPECT_EQ(tl.release_bucket(900), 1); // overdue: still there until it is gone
    EXPECT_EQ(tl.release_bucket(0), backfill::kForever);
    EXPECT_EQ(tl.length_buckets(1), 1);
    EXPECT_EQ(tl.length_buckets(0), 1);
    EXPECT_EQ(tl.length_buckets(DROVER_INFINITE), backfill::kForever);
}

} // namespace
} // namespace drover::plugin::test
