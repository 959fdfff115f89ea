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
/* scontrol reboot asked for (the node reboots once idle), and sent to the node. */
#define DROVER_NODE_FLAG_REBOOT_REQUESTED (1u << 8)
#define DROVER_NODE_FLAG_REBOOT_ISSUED (1u << 9)

/* One node as configured and registered. Index i in the node table is bit i of bitmaps. */
typedef struct drover_node_view {
    uint32_t struct_size;
    drover_str name;
    uint32_t cpus;
    uint32_t sockets, cores_per_socket, threads_per_core;
    uint64_t real_memory_mb;
    uint64_t tmp_disk_mb;
    uint32_t weight;     /* lower weight is allocated first */
    drover_str features; /* comma-separated, as in slurm.conf Feature= */
    uint32_t state;      /* enum drover_node_state */
    uint32_t flags;      /* DROVER_NODE_FLAG_* */
    /* ABI 1.1 */
    drover_str
        gres; /* the node's generic resources, "gpu:4,gpu:a100:2,nic:1" (name[:type]:count) */
} drover_node_view;

/* One job as the scheduler and node selection see it. */
typedef struct drover_job_view {
    uint32_t struct_size;
    uint32_t job_id;
    uint32_t user_id, group_id;
    drover_str name;
    drover_str partition;
    uint32_t priority; /* higher runs first */
    uint32_t state;    /* enum drover_job_state */
    uint32_t min_nodes;
    uint32_t max_nodes; /* DROVER_INFINITE when not bounded */
    uint32_t num_tasks;
    uint32_t cpus_per_task;
    uint64_t mem_per_node_mb; /* 0 when not requested */
    uint32_t time_limit_min;  /* DROVER_INFINITE when unlimited */
    int64_t submit_time;      /* seconds since the epoch */
    uint32_t exclusive;       /* 1 if the job asked for whole nodes */
    /* ABI 1.1 */
    uint64_t mem_per_cpu_mb;    /* --mem-per-cpu; 0 when not requested (mem_per_node_mb applies) */
    uint32_t ntasks_per_node;   /* --ntasks-per-node; 0 when not set */
    uint32_t min_cpus_per_node; /* --mincpus; 0 when not set */
    uint64_t tmp_disk_mb;       /* --tmp, per node; 0 when not set */
    drover_str gres; /* per-node generic resources asked for, "gpu:2,gpu:a100:1"; empty = none */
    uint32_t gpus;   /* --gpus, over the whole job; 0 = none */
    uint32_t gpus_per_node; /* --gpus-per-node; 0 = none */
    uint32_t gpus_per_task; /* --gpus-per-task; 0 = none */
    drover_str constraint;  /* -C: features joined by & and |, with optional *count; empty = none */
    drover_bitmap_view required_nodes; /* -w; words NULL when none */
    drover_bitmap_view excluded_nodes; /* -x; words NULL when none */
    uint32_t contiguous;               /* --contiguous: nodes with consecutive indexes */
    uint32_t share;     /* enum drover_share: may this job share nodes with others? */
    int64_t start_time; /* running: when it started; pending: 0 */
    int64_t end_time;   /* running: start + time limit (0 when unlimited) */
    uint32_t nice;      /* --nice, offset by DROVER_NICE_OFFSET */
    /* ABI 1.5 */
    drover_str qos; /* -q/--qos as asked; empty when none was (Slurm's "normal") */
    /* ABI 1.9 */
    uint32_t partition_tier; /* its partition's PriorityTier (the highest of those it names), in
                                a scheduling pass's pending views: higher tiers go first */
    /* ABI 1.10 */
    drover_str reservation; /* --reservation: the only reservation it may run in; empty: none */
    drover_str account;     /* the account it is charged to; empty when none */
} drover_job_view;

/* Whether a job may share its nodes: from --exclusive / --oversubscribe and the partition's
 * OverSubscribe setting, resolved by the core. */
enum drover_share {
    DROVER_SHARE_CORES = 0,     /* shares nodes, never cores (OverSubscribe=NO, the default) */
    DROVER_SHARE_EXCLUSIVE = 1, /* whole nodes (--exclusive, OverSubscribe=EXCLUSIVE) */
    DROVER_SHARE_OVERSUB =
        2, /* may share cores too (OverSubscribe=YES with --oversubscribe, FORCE) */
};

#define DROVER_NICE_OFFSET 0x80000000u

#ifdef __cplusplus
}
#endif

#endif /* DROVER_VIEWS_H */
