// select_calls.hpp - SelectCalls: the core's calls into the select plugin (drover/select.h).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include <drover/select.h>

#include "common/bitmap.hpp"
#include "plugin/calls.hpp"

namespace drover::plugin {

// Job views come whole from the caller (struct_size set); bitmaps are the core's Bitmap, sized to
// the node table. Each method's comment ends with what it answers when the op is absent.
class SelectCalls : public Calls<drover_select_ops> {
  public:
    using Calls::Calls;

    // Hands the plugin the node table (the array must stay valid until the next node_init).
    // Absent: ENOENT.
    Status node_init(std::span<const drover_node_view> nodes) const;
    // Chooses nodes for job among usable, in mode (DROVER_SELECT_RUN_NOW or _TEST_ONLY), into
    // *picked, which is made usable's size and cleared first. The code is DROVER_OK (picked set),
    // DROVER_EBUSY or DROVER_ENOSPC, or another failure. Absent: ENOENT.
    Status job_test(const drover_job_view &job, const Bitmap &usable, int mode,
                    Bitmap *picked) const;
    // Records that job now holds nodes. A job whose job_begin fails must not start: the plugin
    // does not count it, so its nodes would be given twice. Absent: ENOENT (likewise refused).
    Status job_begin(const drover_job_view &job, const Bitmap &nodes) const;
    // Releases what job_begin recorded. Absent: DROVER_OK (nothing was recorded).
    Status job_fini(const drover_job_view &job) const;
    // CPUs job holds on node index node. Absent: all_cpus (the job holds the whole node).
    uint32_t cpus_on_node(uint32_t job_id, uint32_t node, uint32_t all_cpus) const;
    // What job holds on node index node (struct_size set), or nullopt when the plugin tells
    // nothing there. Absent: nullopt (the caller then knows only cpus_on_node).
    std::optional<drover_node_alloc> alloc_detail(uint32_t job_id, uint32_t node) const;
    // The job's CPUs are free for others while it is suspended; resume takes them back.
    // Absent: DROVER_OK (the suspended job keeps its CPUs).
    Status job_suspend(const drover_job_view &job) const;
    Status job_resume(const drover_job_view &job) const;
};

} // namespace drover::plugin
