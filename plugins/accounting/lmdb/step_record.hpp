// step_record.hpp - one step's accounting record as stored: an owning copy and its packed bytes.
//
// Packed format, version 1 (integers little-endian):
//   u8 version = 1
//   u32 job_id, step_id, nodes, tasks, cpus, state, exit_status, cancelled_by, max_rss_task
//   u64 req_mem_mb, start_time, end_time, max_rss, ave_rss, max_vsize, ave_vsize, ave_cpu_usec,
//       min_cpu_usec, user_cpu_usec, sys_cpu_usec, max_disk_read, max_disk_write, ave_disk_read,
//       ave_disk_write
//   7 strings, each u32 length + bytes: name, node_list, max_rss_node, max_vsize_node,
//   max_disk_read_node, max_disk_write_node, tres_alloc
// A later version may only append; a reader refuses versions it does not know.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <drover/accounting.h>

namespace drover::acct_lmdb {

struct StepRecord {
    drover_acct_step step{}; // the numbers; its drover_str members stay empty
    std::string name, node_list, max_rss_node, max_vsize_node, max_disk_read_node,
        max_disk_write_node, tres_alloc;

    // A copy of a borrowed step (reads only the members step.struct_size covers).
    static StepRecord from(const drover_acct_step &step);
    // The whole step, strings included. OWNERSHIP: the strings point into *this.
    drover_acct_step view() const;

    std::string pack() const;
    // nullopt if bytes are not a version 1 step record or are truncated.
    static std::optional<StepRecord> unpack(std::string_view bytes);
};

} // namespace drover::acct_lmdb
