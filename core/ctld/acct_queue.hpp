// acct_queue.hpp - feeds the accounting plugin from its own thread, in order, so a slow store never
// holds up scheduling; queries run on the same thread after every event queued before them, so a
// job that just ended is visible to sacct at once.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "plugin/plugin_set.hpp"

namespace boost::asio {
class io_context;
}

namespace drover::ctld {

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
};

struct AcctQuery {
    std::vector<uint32_t> job_ids;
    uint32_t uid = DROVER_NO_VAL;
    int64_t start_after = 0, end_before = 0;
};

class AcctQueue {
  public:
    AcctQueue(boost::asio::io_context &io, const plugin::Bound<drover_acct_ops> &acct,
              std::string cluster);
    ~AcctQueue();  // delivers what is queued, then stops

    void job_event(int event, AcctRecord rec);
    // done gets a finished AcctQueryResponse (or ErrorResponse) message, on the loop's thread.
    void query(AcctQuery q, std::function<void(std::vector<uint8_t>)> done);
    std::size_t backlog() const;

  private:
    void run();
    boost::asio::io_context &io_;
    const plugin::Bound<drover_acct_ops> &acct_;
    std::string cluster_;
    mutable std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> queue_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace drover::ctld
