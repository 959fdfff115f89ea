// acct_queue.hpp - feeds the accounting plugin from its own thread, in order, so a slow or absent
// store never holds up scheduling. Every record is first spooled in the state store (Table::
// AcctSpool) in the same commit as the change it records; the worker delivers it, and only then
// is it removed. When the store is down the worker keeps the record and tries again, so nothing is
// lost, and a restart delivers what was left. Queries run after every record queued before them,
// so a job that just ended is visible to sacct at once. Jobs and their steps (batch, extern, srun
// steps) travel through the same queue, in the order they were spooled.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ctld/assoc_db.hpp"
#include "ctld/ctld_stats.hpp"
#include "plugin/plugin_set.hpp"

namespace boost::asio {
class io_context;
}

namespace drover::ctld {

// The state of a requeued job's earlier run in the store: Slurm's JOB_REQUEUE bit, which sacct
// prints as REQUEUED.
inline constexpr uint32_t kAcctStateRequeued = 0x400;

// One job's accounting record, owning its strings.
struct AcctRecord {
    uint32_t job_id = 0, uid = 0, gid = 0;
    std::string name, partition, account, node_list, work_dir;
    uint32_t alloc_nodes = 0, alloc_cpus = 0, req_cpus = 0;
    uint64_t req_mem_mb = 0;
    uint32_t state = 0;
    int32_t exit_status = 0;
    uint32_t time_limit_min = 0;
    int64_t submit_time = 0, eligible_time = 0, start_time = 0, end_time = 0;
    uint32_t cancelled_by = DROVER_NO_VAL;
    uint32_t array_job_id = 0, array_task_id = DROVER_NO_VAL;
    std::string comment;
};

// One step's accounting record, owning its strings: every drover_acct_step member. Sizes are in
// bytes, times in microseconds; the "max" figures name the node and task that had them.
struct AcctStepRecord {
    uint32_t job_id = 0;
    uint32_t step_id = 0;  // 0.. for srun steps; DROVER_STEP_BATCH, DROVER_STEP_EXTERN
    std::string name, node_list;
    uint32_t nodes = 0, tasks = 0, cpus = 0;
    uint64_t req_mem_mb = 0;  // per node; 0 when not limited
    uint32_t state = 0;       // enum drover_job_state
    int32_t exit_status = 0;  // raw wait status (the highest of its tasks)
    int64_t start_time = 0, end_time = 0;
    uint32_t cancelled_by = DROVER_NO_VAL;
    uint32_t max_rss_task = 0;
    uint64_t max_rss = 0, ave_rss = 0;
    std::string max_rss_node;
    uint64_t max_vsize = 0, ave_vsize = 0;
    std::string max_vsize_node;
    uint64_t ave_cpu_usec = 0, min_cpu_usec = 0;
    uint64_t user_cpu_usec = 0, sys_cpu_usec = 0;  // totals over all tasks
    uint64_t max_disk_read = 0, max_disk_write = 0, ave_disk_read = 0, ave_disk_write = 0;
    std::string max_disk_read_node, max_disk_write_node;
    std::string tres_alloc;  // "cpu=4,mem=1G,node=1"
};

// The record as the plugin ABI passes it. OWNERSHIP: its strings point into r.
drover_acct_step acct_step_view(const AcctStepRecord &r);

// A spooled record's bytes: the event, then the record (an AcctJob for the job events, an
// AcctStep for DROVER_ACCT_STEP_START/END). decode_acct of either kind returns false for bytes
// of the other kind or damaged bytes; acct_is_step tells which kind the bytes hold.
std::vector<uint8_t> encode_acct(int event, const AcctRecord &r);
std::vector<uint8_t> encode_acct(int event, const AcctStepRecord &r);
bool acct_is_step(const uint8_t *data, std::size_t len);
bool decode_acct(const uint8_t *data, std::size_t len, int *event, AcctRecord *r);
bool decode_acct(const uint8_t *data, std::size_t len, int *event, AcctStepRecord *r);

struct AcctQuery {
    std::vector<uint32_t> job_ids;
    uint32_t uid = DROVER_NO_VAL;
    int64_t start_after = 0, end_before = 0;
    bool duplicates = false;
    bool jobs_only = false;  // no steps (sacct -X)
};

// PrivateData (as slurm.conf writes it) keeps accounting records private: "jobs" or "usage" in
// the list, in any case. Non-administrators then see only their own records.
bool acct_private(const std::string &private_data);

class AcctQueue {
  public:
    // delivered(seq) runs on the loop once the record spooled under seq is in the store.
    AcctQueue(boost::asio::io_context &io, const plugin::Bound<drover_acct_ops> &acct,
              std::string cluster, std::function<void(uint64_t seq)> delivered);
    ~AcctQueue();  // stops; undelivered records stay spooled for the next start

    // Queues a record already spooled (and committed) under seq.
    void job_event(uint64_t seq, int event, AcctRecord rec);
    // The same for a step's record (DROVER_ACCT_STEP_START or _END).
    void step_event(uint64_t seq, int event, AcctStepRecord rec);
    // done gets a finished AcctQueryResponse (or ErrorResponse) message, on the loop's thread.
    void query(AcctQuery q, std::function<void(std::vector<uint8_t>)> done);
    // Records spooled and not yet delivered.
    std::size_t backlog() const;
    // Runs task (a call of the store for sacctmgr) on the accounting thread after everything
    // queued before it; done(rc, error text) runs on the loop's thread.
    void store_task(std::function<int(const plugin::Bound<drover_acct_ops> &, drover_error *)> task,
                    std::function<void(int, std::string)> done);
    // The associations sacctmgr manages (loop thread only; AcctAdmin keeps them current).
    AssocDb &assocs() { return assocs_; }
    const AssocDb &assocs() const { return assocs_; }
    // The counters sdiag shows (loop thread only), kept here so that every part that records
    // accounting can count.
    CtldStats &stats() { return stats_; }

  private:
    struct Item {
        uint64_t seq = 0;  // an event when non-zero
        int event = 0;
        AcctRecord rec;                      // a job event's record
        std::optional<AcctStepRecord> step;  // or a step event's
        std::function<void()> query;
    };
    void run();
    void push(Item item);
    bool deliver(const Item &item, std::string *why);
    bool deliver_step(const Item &item, std::string *why);
    void answer_query(const AcctQuery &q, const std::function<void(std::vector<uint8_t>)> &done);

    boost::asio::io_context &io_;
    const plugin::Bound<drover_acct_ops> &acct_;
    std::string cluster_;
    std::function<void(uint64_t)> delivered_;
    mutable std::mutex mu_;
    std::condition_variable cv_;
    std::deque<Item> queue_;
    std::size_t events_ = 0;
    bool stopping_ = false;
    AssocDb assocs_;
    CtldStats stats_;
    std::thread thread_;
};

}  // namespace drover::ctld
