// record.hpp - one job's accounting record as stored: an owning copy and its packed bytes.
//
// Packed format, version 5 (integers little-endian); version 1 ends after the six strings:
//   u8 version = 1
//   u32 job_id, user_id, group_id, alloc_nodes, alloc_cpus, req_cpus
//   u64 req_mem_mb
//   u32 state; i32 exit_status; u32 time_limit_min
//   i64 submit_time, eligible_time, start_time, end_time
//   u32 cancelled_by
//   6 strings, each u32 length + bytes: cluster, name, partition, account, node_list, work_dir
//   (version 2) u32 array_job_id, array_task_id; string comment
//   (version 3) string qos
//   (version 4) string alloc_gres
//   (version 5) u32 het_job_id, het_job_offset
// A later version may only append; a reader refuses versions it does not know.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <drover/accounting.h>

namespace drover::acct_lmdb {

struct Record {
    drover_acct_job job{}; // the numbers; its drover_str members stay empty
    std::string cluster, name, partition, account, node_list, work_dir, comment, qos, alloc_gres;

    // A copy of a borrowed job (reads only the members job.struct_size covers).
    static Record from(const drover_acct_job &job);
    // The whole job, strings included. OWNERSHIP: the strings point into *this; valid while it
    // lives unmoved and unchanged.
    drover_acct_job view() const;

    std::string pack() const;
    // nullopt if bytes are not a version 1, 2 or 3 record or are truncated.
    static std::optional<Record> unpack(std::string_view bytes);
};

} // namespace drover::acct_lmdb
