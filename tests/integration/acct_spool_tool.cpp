// acct_spool_tool.cpp - leaves step accounting records in a stopped controller's spool, as a
// controller that died before its accounting thread delivered them would, for acct_steps_test.sh.
//
//   acct_spool_tool STATE_DIR start|end JOB STEP NAME NODE
//
// STEP is a number, "batch" or "extern". An ended step gets fixed usage figures: 2 GiB max RSS on
// task 1 of NODE, 1.5 GiB average, 61.25 s user and 2.5 s system CPU, 1 MiB written.
#include <drover/proctrack.h>

#include <cstdio>
#include <ctime>
#include <string>

#include "ctld/acct/acct_records.hpp"
#include "state/store.hpp"

int main(int argc, char **argv) {
    if (argc != 7) {
        std::fprintf(stderr, "usage: %s STATE_DIR start|end JOB STEP NAME NODE\n", argv[0]);
        return 2;
    }
    const std::string event = argv[2], step = argv[4];
    drover::ctld::AcctStepRecord r;
    r.job_id = uint32_t(std::stoul(argv[3]));
    r.step_id = step == "batch"    ? DROVER_STEP_BATCH
                : step == "extern" ? DROVER_STEP_EXTERN
                                   : uint32_t(std::stoul(step));
    r.name = argv[5];
    r.node_list = argv[6];
    r.nodes = 1;
    r.tasks = 2;
    r.cpus = 2;
    r.start_time = std::time(nullptr) - 60;
    r.state = DROVER_JOB_RUNNING;
    r.tres_alloc = "cpu=2,node=1";
    if (event == "end") {
        r.state = DROVER_JOB_COMPLETE;
        r.end_time = r.start_time + 30;
        r.max_rss = uint64_t{2} << 30;
        r.max_rss_task = 1;
        r.max_rss_node = argv[6];
        r.ave_rss = uint64_t{3} << 29;
        r.user_cpu_usec = 61'250'000;
        r.sys_cpu_usec = 2'500'000;
        r.ave_cpu_usec = 31'875'000;
        r.min_cpu_usec = 30'000'000;
        r.max_disk_write = 1 << 20;
        r.max_disk_write_node = argv[6];
    }
    try {
        drover::state::Store store(argv[1], true);
        uint64_t seq = 0;
        store.scan(drover::state::Table::AcctSpool,
                   [&](drover::state::Bytes key, drover::state::Bytes) {
                       seq = std::max(seq, drover::state::seq_from_key(key));
                   });
        auto key = drover::state::seq_key(seq + 1);
        auto value = drover::ctld::encode_acct(
            event == "end" ? DROVER_ACCT_STEP_END : DROVER_ACCT_STEP_START, r);
        auto txn = store.begin();
        txn.put(drover::state::Table::AcctSpool, key, value);
        txn.commit();
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
