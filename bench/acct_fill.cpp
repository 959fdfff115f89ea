// acct_fill.cpp - fills an accounting store with completed jobs through the plugin API, for
// bench/sacct_bench.sh, and prints how fast the store took them. Not a test.
//
//   acct_fill accounting/lmdb|accounting/postgres COUNT [Key=Value ...]
//
// Key=Value are slurm.conf keys (AccountingStorageLoc, AccountingStorageHost, ..., ClusterName).
// Job i (1..COUNT) belongs to uid 1000 + i % 10, was submitted 6 s after job i-1 (ending now), ran
// 60 s on n[1-4] with 16 CPUs, and has one batch step with usage figures.
#include <drover/proctrack.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

#include "common/config.hpp"
#include "plugin/plugin_set.hpp"

namespace {

drover_str str(const std::string &s) {
    return {s.data(), s.size()};
}

std::string lower(std::string s) {
    for (char &c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr,
                     "usage: %s accounting/lmdb|accounting/postgres COUNT [Key=Value ...]\n",
                     argv[0]);
        return 2;
    }
    const std::string type = argv[1];
    const uint32_t count = uint32_t(std::stoul(argv[2]));
    drover::Config conf;
    for (int i = 3; i < argc; ++i) {
        std::string kv = argv[i];
        auto eq = kv.find('=');
        if (eq == std::string::npos) continue;
        conf.raw[lower(kv.substr(0, eq))] = kv.substr(eq + 1);
    }
    std::string cluster = conf.raw.count("clustername") ? conf.raw["clustername"] : "local";
    try {
        drover::plugin::PluginSet set(conf, "ctld");
        set.load(type);
        const auto &acct = set.acct();
        const int64_t now = std::time(nullptr);
        const std::string name = "bench", part = "debug", nodes = "n[1-4]", wd = "/tmp",
                          node = "n1", tres = "cpu=16,mem=4G,node=4", batch = "batch";
        std::string account;
        auto t0 = std::chrono::steady_clock::now();
        for (uint32_t i = 1; i <= count; ++i) {
            account = "acct" + std::to_string(i % 5);
            drover_acct_job j{};
            j.struct_size = sizeof j;
            j.job_id = i;
            j.user_id = 1000 + i % 10;
            j.group_id = 1000;
            j.cluster = str(cluster);
            j.name = str(name);
            j.partition = str(part);
            j.account = str(account);
            j.node_list = str(nodes);
            j.work_dir = str(wd);
            j.alloc_nodes = 4;
            j.alloc_cpus = 16;
            j.req_cpus = 16;
            j.req_mem_mb = 1024;
            j.state = DROVER_JOB_COMPLETE;
            j.time_limit_min = 60;
            j.submit_time = now - int64_t(count - i) * 6 - 70;
            j.eligible_time = j.submit_time;
            j.start_time = j.submit_time + 5;
            j.end_time = j.start_time + 60;
            j.cancelled_by = DROVER_NO_VAL;
            j.array_task_id = DROVER_NO_VAL;
            drover_error err{};
            if (acct.ops.job_event(acct.state, DROVER_ACCT_JOB_END, &j, &err) != DROVER_OK) {
                std::fprintf(stderr, "job %u: %s\n", i, err.text);
                return 1;
            }
            drover_acct_step s{};
            s.struct_size = sizeof s;
            s.job_id = i;
            s.step_id = DROVER_STEP_BATCH;
            s.name = str(batch);
            s.node_list = str(node);
            s.nodes = 1;
            s.tasks = 1;
            s.cpus = 4;
            s.state = DROVER_JOB_COMPLETE;
            s.start_time = j.start_time;
            s.end_time = j.end_time;
            s.cancelled_by = DROVER_NO_VAL;
            s.max_rss = uint64_t(100 + i % 900) << 20;
            s.max_rss_node = str(node);
            s.ave_rss = s.max_rss;
            s.user_cpu_usec = 50'000'000;
            s.sys_cpu_usec = 1'500'000;
            s.ave_cpu_usec = s.min_cpu_usec = 51'500'000;
            s.tres_alloc = str(tres);
            if (acct.ops.step_event(acct.state, DROVER_ACCT_STEP_END, &s, &err) != DROVER_OK) {
                std::fprintf(stderr, "step %u.batch: %s\n", i, err.text);
                return 1;
            }
        }
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf(
            "%s: %u jobs and %u steps stored through the plugin in %.2f s (%.0f records/s)\n",
            type.c_str(), count, count, secs, 2.0 * count / secs);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
