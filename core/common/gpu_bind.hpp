// gpu_bind.hpp - srun's --gpu-bind: which of a step's GPUs on a node each of its tasks sees.
//
// Forms, as Slurm documents them, each optionally after "verbose," (which also may stand alone):
//   none                       every task sees every GPU of the step (the default)
//   closest                    the GPUs near the task's cores (gres.conf's Cores=; a GPU without
//                              them is near every core); a task bound to no CPUs, or near none
//                              of the step's GPUs, sees every GPU of the step
//   single:<tasks_per_gpu>     one GPU per task, tasks_per_gpu tasks on each in turn
//   per_task:<gpus_per_task>   gpus_per_task GPUs per task, in turn (what --gpus-per-task implies)
//   map_gpu:<id>[*N],...       task i sees GPU id i of the list (the list repeats)
//   mask_gpu:<mask>[*N],...    task i sees the GPUs whose bits mask i sets (hex, "0x" optional)
// With ConstrainDevices=yes the step sees only its own GPUs, so map and mask ids count among
// them (0 is the step's first GPU) and CUDA_VISIBLE_DEVICES lists those positions; otherwise ids
// are the node's GPU indexes and CUDA_VISIBLE_DEVICES lists them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drover {

struct GpuBind {
    enum class Kind { None, Closest, Single, PerTask, Map, Mask };
    Kind kind = Kind::None;
    bool verbose = false;
    uint32_t count = 0;         // single: tasks per GPU; per_task: GPUs per task
    std::vector<uint64_t> list; // map_gpu ids or mask_gpu masks, repetitions expanded
};

// Parses a --gpu-bind value. Throws ParseError "invalid --gpu-bind argument 'TEXT': what" for an
// unknown form, a missing or zero count, a bad id or mask, or an empty or over-long list.
GpuBind parse_gpu_bind(std::string_view spec);

// What one task sees, and how its variables name it.
struct TaskGpus {
    std::vector<uint32_t> global; // node GPU indexes, a subset of the step's, ascending
    std::string visible;          // CUDA_VISIBLE_DEVICES: global or step-relative indexes
    bool outside_step = false;    // map/mask named no GPU of the step: the first one is used
};

// The GPUs local task local_id sees of step_gpus (the step's node GPU indexes, ascending).
// relative: ConstrainDevices is on (ids and CUDA_VISIBLE_DEVICES count among step_gpus). near:
// for closest, the step's GPUs near the task (gpus_near); empty: every GPU of the step.
TaskGpus task_gpus(const GpuBind &bind, const std::vector<uint32_t> &step_gpus, uint32_t local_id,
                   bool relative, const std::vector<uint32_t> &near = {});

// The GPUs of step_gpus near a task on task_cores (core ids as gres.conf numbers them): those
// whose gpu_cores entry (Cores= as written, by GPU index) shares a core with it, or has none.
// Empty when the task has no cores or is near none of them.
std::vector<uint32_t> gpus_near(const std::vector<uint32_t> &step_gpus,
                                const std::vector<std::string> &gpu_cores,
                                const std::vector<uint32_t> &task_cores);

// The line --gpu-bind=verbose prints on the task's standard error, as Slurm words it:
// "gpu-bind: usable_gres=0x2; bit_alloc=0x3; local_inx=1; global_list=1; local_list=1".
std::string gpu_bind_verbose_line(const TaskGpus &t, const std::vector<uint32_t> &step_gpus,
                                  uint32_t local_id);

} // namespace drover
