// sched_bench.cpp - the cost of one scheduling pass on a large synthetic cluster, in one process.
//
// Builds the controller's parts as droverctld does (core/ctld, no network): a partition of
// --nodes nodes (32 CPUs, 128 GB each), marked up as if they had registered, and --jobs pending
// jobs adopted straight into the JobManager: 1 to 64 nodes (half of them 1 node), 1 to 32 tasks
// per node (2 GB per CPU), time limits from 5 minutes to a day (log-uniform). Then, for each
// select plugin (select/linear, and select/cons_tres when its plugin is built) and each
// scheduler (sched/builtin, sched/backfill):
//
//   fill      the first pass: the cluster is empty, the strict part starts jobs in priority order
//             until the first that does not fit (sched/backfill plans in the same pass)
//   pass      a pass on the full cluster with the queue still long, right after the fill: what
//             every submission or job end costs (sched/backfill: within bf_interval of its last
//             plan, so the strict part only)
//   backfill  sched/backfill only: a pass in which the plan runs (bf_interval=2, two seconds on)
//
// After the fill pass the running jobs' start times are spread over their time limits (as on a
// cluster that has been running for a while) so that the plan sees many different end times.
// Only Scheduler::pass() is timed. No launcher is built (and the loop does not run), so no node
// daemon is needed; the state store lives under /tmp and is removed.
//
//   sched_bench [--nodes N] [--jobs N] [--seed N] [--select linear|cons_tres|all]
//               [--sched builtin|backfill|all] [--repeat N] [--params SchedulerParameters]
//               [--reservations N]
//
// --reservations N adds N advance reservations before the fill, each of 1% of the nodes (node
// ranges one after the other), for root, two hours long, starting an hour apart from now: the
// pass then keeps other jobs off them (and the plan around them). Compare with N = 0.
//
// --repeat N times the "pass" line N times and prints the median (for profiling the strict
// pass: perf record -g --call-graph dwarf build/bench/sched_bench --sched builtin --repeat 50).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <vector>

#include <boost/asio/io_context.hpp>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "ctld/acct/acct_queue.hpp"
#include "ctld/acct/acct_recorder.hpp"
#include "ctld/store/committer.hpp"
#include "ctld/context.hpp"
#include "ctld/jobs/job.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/sched/placement.hpp"
#include "ctld/sched/scheduler.hpp"
#include "ctld/events.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"
#include "plugin/plugin_set.hpp"
#include "state/store.hpp"

namespace {

using namespace drover;
using Clock = std::chrono::steady_clock;

struct Options {
    uint32_t nodes = 10000;
    uint32_t jobs = 100000;
    uint32_t seed = 42;
    std::string select = "all";
    std::string sched = "all";
    uint32_t repeat = 1;
    std::string params = "bf_interval=2";
    uint32_t reservations = 0;
};

// One synthetic job's request.
struct JobShape {
    uint32_t nodes, tasks_per_node, limit_min;
};

std::vector<JobShape> make_shapes(const Options &o) {
    std::mt19937_64 rng(o.seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const uint32_t per_node[] = {1, 2, 4, 8, 16, 32};
    std::vector<JobShape> shapes;
    shapes.reserve(o.jobs);
    for (uint32_t i = 0; i < o.jobs; ++i) {
        const double u = unit(rng);
        uint32_t n;
        if (u < 0.50)
            n = 1;
        else if (u < 0.75)
            n = 2 + uint32_t(unit(rng) * 3); // 2-4
        else if (u < 0.90)
            n = 5 + uint32_t(unit(rng) * 12); // 5-16
        else if (u < 0.97)
            n = 17 + uint32_t(unit(rng) * 16); // 17-32
        else
            n = 33 + uint32_t(unit(rng) * 32); // 33-64
        const uint32_t tpn = per_node[uint32_t(unit(rng) * 6) % 6];
        const uint32_t limit = uint32_t(std::lround(5.0 * std::pow(1440.0 / 5.0, unit(rng))));
        shapes.push_back({std::min<uint32_t>(n, o.nodes), tpn, limit});
    }
    return shapes;
}

std::string config_text(const Options &o, const std::string &dir, const std::string &select,
                        const std::string &sched) {
    const std::string last = std::to_string(o.nodes);
    char range[64];
    std::snprintf(range, sizeof range, "b[%0*u-%s]", int(last.size()), 1u, last.c_str());
    return "ClusterName=bench\n"
           "SlurmctldHost=localhost(127.0.0.1)\n"
           "SlurmdPort=9\n" // discard: nothing is ever sent there
           "StateSaveLocation=" +
           dir +
           "\n"
           "SelectType=" +
           select +
           "\n"
           "SchedulerType=" +
           sched +
           "\n"
           "SchedulerParameters=" +
           o.params +
           "\n"
           "MaxJobCount=" +
           std::to_string(o.jobs * 2 + 10) +
           "\n"
           "NodeName=" +
           std::string(range) +
           " CPUs=32 Sockets=2 CoresPerSocket=16 ThreadsPerCore=1 RealMemory=128000 "
           "State=UNKNOWN\n"
           "PartitionName=batch Nodes=" +
           std::string(range) + " Default=YES MaxTime=INFINITE State=UP\n";
}

// Drops the controller's log lines but keeps the last summary sched/backfill logs of its plan.
class PlanLine : public spdlog::sinks::base_sink<std::mutex> {
  public:
    std::string take() {
        std::lock_guard lk(mutex_);
        return std::exchange(last_, {});
    }

  protected:
    void sink_it_(const spdlog::details::log_msg &msg) override {
        const std::string_view text(msg.payload.data(), msg.payload.size());
        if (const auto at = text.find("plan: "); at != std::string_view::npos)
            last_.assign(text.substr(at + 6));
    }
    void flush_() override {}

  private:
    std::string last_;
};

std::shared_ptr<PlanLine> plan_line;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Figure {
    double ms;
    std::size_t pending_before, started, forecasts;
};

// One timed pass.
Figure timed_pass(ctld::Scheduler &sched, ctld::JobManager &jobs) {
    const std::size_t pending = jobs.pending().size();
    const std::size_t running = jobs.running().size();
    const auto t0 = Clock::now();
    sched.pass();
    const double ms = ms_since(t0);
    std::size_t forecasts = 0;
    for (const ctld::Job *j : jobs.pending()) forecasts += j->expected_start != 0;
    return {ms, pending, jobs.running().size() - running, forecasts};
}

void print(const std::string &select, const std::string &sched, const char *what, const Options &o,
           const Figure &f, const char *target) {
    std::printf("%-17s %-15s %-9s %6u nodes %7zu pending %3u resv %9.1f ms  (started %zu)%s\n",
                select.c_str(), sched.c_str(), what, o.nodes, f.pending_before, o.reservations,
                f.ms, f.started, target);
    if (const std::string plan = plan_line->take(); !plan.empty())
        std::printf("%45s plan: %s; %zu pending jobs have an expected start\n", "", plan.c_str(),
                    f.forecasts);
    std::fflush(stdout);
}

// --reservations: each of 1% of the nodes, the next range after the last, an hour apart.
void add_reservations(const Options &o, ctld::Reservations &resv) {
    const uint32_t per = std::max<uint32_t>(1, o.nodes / 100);
    for (uint32_t r = 0; r < o.reservations; ++r) {
        const uint32_t first = (r * per) % o.nodes + 1, last = std::min(first + per - 1, o.nodes);
        const int width = int(std::to_string(o.nodes).size()); // b00001: as config_text names
        char nodes[64];
        std::snprintf(nodes, sizeof nodes, "b[%0*u-%0*u]", width, first, width, last);
        std::string name;
        const Status s =
            resv.create(ctld::parse_resv_spec({{"StartTime", "now+" + std::to_string(r) + "hours"},
                                               {"Duration", "2:00:00"},
                                               {"Nodes", nodes},
                                               {"Users", "root"},
                                               {"Flags", "OVERLAP"}},
                                              ctld::Ctx::now()),
                        &name);
        if (!s.ok()) throw std::runtime_error("reservation " + std::to_string(r) + ": " + s.text());
    }
}

void run_case(const Options &o, const std::vector<JobShape> &shapes, const std::string &select,
              const std::string &sched_name) {
    std::string tmpl = "/tmp/drover-sched-bench-XXXXXX";
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    const std::string dir = tmpl;
    {
        Config conf = parse_config(config_text(o, dir + "/state", select, sched_name),
                                   dir + "/slurm.conf", dir);
        boost::asio::io_context io(1);
        plugin::PluginSet plugins(conf, "ctld");
        plugins.load(select);
        plugins.load(sched_name);
        net::Authenticator auth(plugins.auth()); // none loaded: nothing is signed here
        state::Store store(conf.state_save_location, false);
        ctld::Committer commit(io, store);
        net::CallPool pool(io, 1);
        ctld::AcctQueue acct(io, plugins.acct(), conf.cluster_name, [](uint64_t) {}); // none loaded
        ctld::AcctRecorder recorder(commit, store, acct);
        ctld::Events events;
        ctld::Ctx ctx{io,   conf, plugins, auth, store,   commit,
                      pool, acct, events,  0,    "bench", &recorder};
        ctld::NodeManager nodes(ctx);
        ctld::Placement place(plugins.select_calls(), nodes);
        ctld::JobManager jobs(ctx, nodes, place);
        ctld::Reservations resv(ctx, nodes, jobs);
        ctld::Scheduler sched(ctx, nodes, jobs, place, resv);
        for (uint32_t i = 0; i < nodes.size(); ++i) nodes.mark_up(i);
        sched.init_select();

        const int64_t now = ctld::Ctx::now();
        for (const JobShape &s : shapes) {
            auto j = std::make_unique<ctld::Job>();
            j->uid = j->gid = 1000;
            j->user_name = "bench";
            j->name = "bench";
            j->partition = "batch";
            j->account = "bench";
            j->min_nodes = j->max_nodes = s.nodes;
            j->num_tasks = s.nodes * s.tasks_per_node;
            j->cpus_per_task = 1;
            j->mem_per_cpu_mb =
                2000; // --mem-per-cpu: without it cons_tres gives whole nodes' memory
            j->time_limit_min = s.limit_min;
            j->submit_time = j->eligible_time = now;
            j->work_dir = "/tmp";
            jobs.adopt(std::move(j));
        }
        add_reservations(o, resv);
        commit.flush(); // the adopted jobs' records; nothing waits on this commit

        const bool backfill = sched_name == "sched/backfill";
        const Figure fill = timed_pass(sched, jobs);
        print(select, sched_name, "fill", o, fill, "");

        // As on a cluster that has run for a while: jobs started at different times.
        std::mt19937_64 rng(o.seed + 1);
        for (ctld::Job *j : jobs.running()) {
            const int64_t limit_s = int64_t(j->time_limit_min) * 60;
            j->start_time = now - int64_t(std::uniform_real_distribution<double>(0, 0.95)(rng) *
                                          double(limit_s));
        }
        // Right after the fill pass (sched/backfill: within bf_interval of its plan).
        std::vector<Figure> strict;
        for (uint32_t r = 0; r < std::max<uint32_t>(o.repeat, 1); ++r)
            strict.push_back(timed_pass(sched, jobs));
        std::sort(strict.begin(), strict.end(),
                  [](const Figure &a, const Figure &b) { return a.ms < b.ms; });
        print(select, sched_name, "pass", o, strict[strict.size() / 2],
              strict.size() > 1 ? "  (median)  target < 100 ms" : "  target < 100 ms");
        if (backfill) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2100)); // bf_interval=2
            const Figure plan = timed_pass(sched, jobs);
            print(select, sched_name, "backfill", o, plan, "  target < 1000 ms");
        }
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

bool plugin_built(const std::string &id) {
    Config conf;
    plugin::PluginSet probe(conf, "ctld");
    for (const auto &d : probe.search_dirs())
        if (std::filesystem::exists(d + "/" + plugin::plugin_file_name(id))) return true;
    return false;
}

} // namespace

int main(int argc, char **argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--nodes")
            o.nodes = uint32_t(std::stoul(v));
        else if (k == "--jobs")
            o.jobs = uint32_t(std::stoul(v));
        else if (k == "--seed")
            o.seed = uint32_t(std::stoul(v));
        else if (k == "--select")
            o.select = v;
        else if (k == "--sched")
            o.sched = v;
        else if (k == "--repeat")
            o.repeat = uint32_t(std::stoul(v));
        else if (k == "--params")
            o.params = v;
        else if (k == "--reservations")
            o.reservations = uint32_t(std::stoul(v));
        else {
            std::fprintf(stderr,
                         "usage: %s [--nodes N] [--jobs N] [--seed N] "
                         "[--select linear|cons_tres|all] [--sched builtin|backfill|all] "
                         "[--repeat N] [--params SchedulerParameters] [--reservations N]\n",
                         argv[0]);
            return 2;
        }
    }
    // The controller logs every start at info level: keep the formatting, drop the output (but
    // for sched/backfill's summary of its plan, logged at debug level).
    plan_line = std::make_shared<PlanLine>();
    auto logger = std::make_shared<spdlog::logger>("bench", plan_line);
    logger->set_level(spdlog::level::debug);
    spdlog::set_default_logger(logger);

    std::vector<std::string> selects;
    if (o.select == "all" || o.select == "linear") selects.push_back("select/linear");
    if (o.select == "all" || o.select == "cons_tres") {
        if (plugin_built("select/cons_tres"))
            selects.push_back("select/cons_tres");
        else
            std::printf("select/cons_tres: not built, skipped\n");
    }
    std::printf("sched_bench: %u nodes x 32 CPUs, %u pending jobs, seed %u, %u CPU(s), "
                "SchedulerParameters=%s\n",
                o.nodes, o.jobs, o.seed, std::thread::hardware_concurrency(), o.params.c_str());
    const auto shapes = make_shapes(o);
    try {
        for (const auto &select : selects)
            for (const std::string sched : {"builtin", "backfill"})
                if (o.sched == "all" || o.sched == sched)
                    run_case(o, shapes, select, "sched/" + sched);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "sched_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
