// acct_queue.hpp - feeds the accounting plugin from its own thread, in order, so a slow or absent
// store never holds up scheduling. Every record is first spooled in the state store (Table::
// AcctSpool) in the same commit as the change it records (acct_recorder.hpp); the worker delivers
// it, and only then is it removed. When the store is down the worker keeps the record and tries
// again, so nothing is lost, and a restart delivers what was left. Queries run after every record
// queued before them, so a job that just ended is visible to sacct at once. Jobs, their steps
// (batch, extern, srun steps) and node events travel through the same queue, in the order they
// were spooled.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ctld/acct/acct_query.hpp"
#include "ctld/acct/acct_records.hpp"
#include "ctld/acct/assoc_db.hpp"
#include "ctld/ctld_stats.hpp"
#include "common/status.hpp"
#include "plugin/acct_calls.hpp"

namespace boost::asio {
class io_context;
}

namespace drover::ctld {

struct AcctQuery {
    std::vector<uint32_t> job_ids;
    uint32_t uid = DROVER_NO_VAL;
    int64_t start_after = 0, end_before = 0;
    bool duplicates = false;
    bool jobs_only = false; // no steps (sacct -X)
    AcctFilters filters;
};

// sacctmgr show event: drover_acct_event_query's members (empty: no filter).
struct AcctEventQuery {
    std::vector<std::string> clusters, nodes;
    int64_t period_start = 0, period_end = 0;
};

class AcctQueue {
  public:
    // delivered(seq) runs on the loop once the record spooled under seq is in the store.
    // OWNERSHIP: the plugin behind acct (a PluginSet's) must outlive the queue.
    AcctQueue(boost::asio::io_context &io, plugin::AcctCalls acct, std::string cluster,
              std::function<void(uint64_t seq)> delivered);
    ~AcctQueue(); // stops; undelivered records stay spooled for the next start

    // Queues a record already spooled (and committed) under seq: a job's (event DROVER_ACCT_JOB_*),
    // a step's (DROVER_ACCT_STEP_START or _END) or a node event (kAcctNodeEventCode).
    void record(uint64_t seq, int event, AcctPayload rec);
    // done gets a finished AcctQueryResponse (or ErrorResponse) message, on the loop's thread.
    void query(AcctQuery q, std::function<void(std::vector<uint8_t>)> done);
    // The same for node events: an AcctEventQueryResponse (or ErrorResponse) message.
    void event_query(AcctEventQuery q, std::function<void(std::vector<uint8_t>)> done);
    // Records spooled and not yet delivered.
    std::size_t backlog() const;
    // Runs task (a call of the store for sacctmgr) on the accounting thread after everything
    // queued before it; done(its Status) runs on the loop's thread.
    void store_task(std::function<Status(const plugin::AcctCalls &)> task,
                    std::function<void(Status)> done);
    // The associations sacctmgr manages (loop thread only; AcctAdmin keeps them current).
    AssocDb &assocs() { return assocs_; }
    const AssocDb &assocs() const { return assocs_; }
    // The counters sdiag shows (loop thread only), kept here so that every part that records
    // accounting can count.
    CtldStats &stats() { return stats_; }

  private:
    struct Item {
        uint64_t seq = 0; // a record when non-zero
        int event = 0;
        AcctPayload rec;
        std::function<void()> query; // or a query (or sacctmgr's task) to run in turn
    };
    void run();
    void push_task(std::function<void()> task);
    // Hands a record to the store; the Status's text names the record when it refused.
    Status deliver(const Item &item);
    Status deliver(int event, const AcctRecord &r);
    Status deliver(int event, const AcctStepRecord &r);
    Status deliver(int event, const AcctNodeEvent &r);
    void answer_query(const AcctQuery &q, const std::function<void(std::vector<uint8_t>)> &done);
    void answer_event_query(const AcctEventQuery &q,
                            const std::function<void(std::vector<uint8_t>)> &done);

    boost::asio::io_context &io_;
    plugin::AcctCalls acct_;
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

} // namespace drover::ctld
