// acct_records.hpp - what the controller records in the accounting store, owning its strings: a
// job's record, a step's, and a node event (a node down or drained, sacctmgr show event); and
// their bytes in the controller's spool (acct_spool.cpp), where each waits until the store has it.
#pragma once

#include <drover/accounting.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace drover::ctld {

// The state of a requeued job's earlier run in the store: Slurm's JOB_REQUEUE bit, which sacct
// prints as REQUEUED.
inline constexpr uint32_t kAcctStateRequeued = 0x400;

// One job's accounting record.
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
    std::string qos;
};

// One step's accounting record: every drover_acct_step member. Sizes are in bytes, times in
// microseconds; the "max" figures name the node and task that had them.
struct AcctStepRecord {
    uint32_t job_id = 0;
    uint32_t step_id = 0; // 0.. for srun steps; DROVER_STEP_BATCH, DROVER_STEP_EXTERN
    std::string name, node_list;
    uint32_t nodes = 0, tasks = 0, cpus = 0;
    uint64_t req_mem_mb = 0; // per node; 0 when not limited
    uint32_t state = 0;      // enum drover_job_state
    int32_t exit_status = 0; // raw wait status (the highest of its tasks)
    int64_t start_time = 0, end_time = 0;
    uint32_t cancelled_by = DROVER_NO_VAL;
    uint32_t max_rss_task = 0;
    uint64_t max_rss = 0, ave_rss = 0;
    std::string max_rss_node;
    uint64_t max_vsize = 0, ave_vsize = 0;
    std::string max_vsize_node;
    uint64_t ave_cpu_usec = 0, min_cpu_usec = 0;
    uint64_t user_cpu_usec = 0, sys_cpu_usec = 0; // totals over all tasks
    uint64_t max_disk_read = 0, max_disk_write = 0, ave_disk_read = 0, ave_disk_write = 0;
    std::string max_disk_read_node, max_disk_write_node;
    std::string tres_alloc; // "cpu=4,mem=1G,node=1"
};

// One node event: every drover_acct_node_event member but the cluster, which the accounting
// thread adds (this controller's ClusterName), as it does for jobs.
struct AcctNodeEvent {
    std::string node_name;
    uint32_t state = 0, flags = 0; // the node's when the event began
    std::string reason;
    uint32_t reason_uid = DROVER_NO_VAL;
    int64_t start_time = 0;
    int64_t end_time = 0; // 0: it lasts
};

// Any record, as the spool and the accounting thread carry them, in the order they were made.
using AcctPayload = std::variant<AcctRecord, AcctStepRecord, AcctNodeEvent>;

// The event byte a node event is spooled under (the ABI's node_event takes no event code; job
// and step records are spooled under their DROVER_ACCT_* event).
inline constexpr int kAcctNodeEventCode = 0x40;

// The records as the plugin ABI passes them. OWNERSHIP: their strings point into r (and cluster).
drover_acct_step acct_step_view(const AcctStepRecord &r);
drover_acct_node_event acct_node_event_view(const AcctNodeEvent &r, const std::string &cluster);

// A spooled record's bytes: the event byte, then the record as a FlatBuffer (AcctJob, AcctStep or
// AcctNodeEvent, by the event). decode_acct returns false for damaged bytes or an event that does
// not fit the record.
std::vector<uint8_t> encode_acct(int event, const AcctPayload &r);
bool decode_acct(const uint8_t *data, std::size_t len, int *event, AcctPayload *r);

} // namespace drover::ctld
