// state_fill.cpp - writes pending jobs into a controller's state store as a stream of
// `sbatch --wrap` submissions would leave them, for bench/restart.sh. Not a test.
//
//   state_fill STATE_DIR COUNT [PARTITION] [SCRIPT_BYTES]
//
// Job i (1..COUNT) is uid 1000 + i % 10's `--wrap "sleep i"`, submitted one second after job i-1
// (the last one now), one task, one CPU, in PARTITION (default debug), pending. Its job record is
// written as the controller writes it (write_job_info), and a script record of SCRIPT_BYTES
// (default 3000: a short script and the environment a login shell exports) sits beside it, as a
// submission leaves one.
// The next job id follows the last. Everything goes in one transaction.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

#include "ctld/jobs/job.hpp"
#include "ctld/jobs/job_record.hpp"
#include "state/store.hpp"

int main(int argc, char **argv) {
    using namespace drover;
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s STATE_DIR COUNT [PARTITION] [SCRIPT_BYTES]\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    const uint32_t count = uint32_t(std::stoul(argv[2]));
    const std::string partition = argc > 3 ? argv[3] : "debug";
    const std::size_t script_bytes = argc > 4 ? std::stoul(argv[4]) : 3000;
    try {
        state::Store store(dir, false);
        auto t0 = std::chrono::steady_clock::now();
        auto txn = store.begin();
        const int64_t now = std::time(nullptr);
        const std::vector<uint8_t> script(script_bytes, uint8_t('#'));
        auto no_nodes = [](const std::vector<uint32_t> &) { return std::string(); };
        for (uint32_t i = 1; i <= count; ++i) {
            ctld::Job j;
            j.id = i;
            j.uid = j.gid = 1000 + i % 10;
            j.user_name = "user" + std::to_string(i % 10);
            j.name = "wrap";
            j.partition = partition;
            j.account = "acct" + std::to_string(i % 5);
            j.priority = 1000000 - i;
            j.reason = "None";
            j.submit_time = j.eligible_time = now - int64_t(count - i);
            j.work_dir = "/home/user" + std::to_string(i % 10);
            j.std_out = "slurm-%j.out";
            j.submit_host = "login1";
            j.command = "(null)";
            flatbuffers::FlatBufferBuilder fbb(512);
            fbb.Finish(ctld::write_job_info(fbb, j, no_nodes, "local", false));
            auto key = state::job_key(i);
            txn.put(state::Table::Jobs, key, {fbb.GetBufferPointer(), fbb.GetSize()});
            txn.put(state::Table::Scripts, key, script);
        }
        state::put_meta_u64(txn, "next_job_id", count + 1);
        txn.commit();
        store.sync();
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("state_fill: %u pending jobs written to %s in %.2f s\n", count, dir.c_str(), s);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "state_fill: %s\n", e.what());
        return 1;
    }
    return 0;
}
