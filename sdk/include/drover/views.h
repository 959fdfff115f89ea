/* drover/views.h - read-only views of jobs and nodes that the core lends to plugins.
 *
 * Views are flat C structs. OWNERSHIP: the core's; a view and every string in it are valid only
 * for the duration of the call that passed it, unless the call's comment says otherwise. Views
 * begin with struct_size and grow only at their end (see drover/plugin.h).
 */
#ifndef DROVER_VIEWS_H
#define DROVER_VIEWS_H

#include <drover/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DROVER_INFINITE 0xffffffffu /* a time limit or count with no bound */
#define DROVER_NO_VAL 0xfffffffeu   /* a value that was not set */

/* Job base states, numbered as Slurm numbers them. */
enum drover_job_state {
    DROVER_JOB_PENDING = 0,
    DROVER_JOB_RUNNING = 1,
    DROVER_JOB_SUSPENDED = 2,
    DROVER_JOB_COMPLETE = 3,
    DROVER_JOB_CANCELLED = 4,
    DROVER_JOB_FAILED = 5,
    DROVER_JOB_TIMEOUT = 6,
    DROVER_JOB_NODE_FAIL = 7,
    DROVER_JOB_PREEMPTED = 8,
    DROVER_JOB_BOOT_FAIL = 9,
    DROVER_JOB_DEADLINE = 10,
    DROVER_JOB_OOM = 11,
};

/* Node base states. Flags (drain, not responding, cloud, power states) are separate bits. */
enum drover_node_state {
    DROVER_NODE_UNKNOWN = 0,
    DROVER_NODE_DOWN = 1,
    DROVER_NODE_IDLE = 2,
    DROVER_NODE_ALLOCATED = 3,
    DROVER_NODE_MIXED = 4,
    DROVER_NODE_FUTURE = 5,
};

#define DROVER_NODE_FLAG_DRAIN (1u << 0)
#define DROVER_NODE_FLAG_COMPLETING (1u << 1)
#define DROVER_NODE_FLAG_NOT_RESPONDING (1u << 2)
#define DROVER_NODE_FLAG_CLOUD (1u << 3)
#define DROVER_NODE_FLAG_POWERED_DOWN (1u << 4)
#define DROVER_NODE_FLAG_POWERING_UP (1u << 5)
#define DROVER_NODE_FLAG_POWERING_DOWN (1u << 6)
#define DROVER_NODE_FLAG_POWER_DOWN (1u << 7)

/* One node as configured and registered. Index i in the node table is bit i of bitmaps. */
typedef struct drover_node_view {
    uint32_t struct_size;
    drover_str name;
    uint32_t cpus;
    uint32_t sockets, cores_per_socket, threads_per_core;
    uint64_t real_memory_mb;
    uint64_t tmp_disk_mb;
    uint32_t weight;          /* lower weight is allocated first */
    drover_str features;      /* comma-separated, as in slurm.conf Feature= */
    uint32_t state;           /* enum drover_node_state */
    uint32_t flags;           /* DROVER_NODE_FLAG_* */
} drover_node_view;

/* One job as the scheduler and node selection see it. */
typedef struct drover_job_view {
    uint32_t struct_size;
    uint32_t job_id;
    uint32_t user_id, group_id;
    drover_str name;
    drover_str partition;
    uint32_t priority;        /* higher runs first */
    uint32_t state;           /* enum drover_job_state */
    uint32_t min_nodes;
    uint32_t max_nodes;       /* DROVER_INFINITE when not bounded */
    uint32_t num_tasks;
    uint32_t cpus_per_task;
    uint64_t mem_per_node_mb; /* 0 when not requested */
    uint32_t time_limit_min;  /* DROVER_INFINITE when unlimited */
    int64_t submit_time;      /* seconds since the epoch */
    uint32_t exclusive;       /* 1 if the job asked for whole nodes */
} drover_job_view;

#ifdef __cplusplus
}
#endif

#endif /* DROVER_VIEWS_H */
