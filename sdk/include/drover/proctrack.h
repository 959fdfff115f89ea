/* drover/proctrack.h - process tracking plugins (ProctrackType=proctrack/<name>).
 *
 * A container holds every process of one job step, however it forks. The node daemon forks the
 * step's first process stopped on a pipe, calls cont_create with its pid, and only then lets it
 * run, so no child can escape before it is tracked.
 */
#ifndef DROVER_PROCTRACK_H
#define DROVER_PROCTRACK_H

#include <drover/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t drover_cont_id;

#define DROVER_STEP_BATCH 0xfffffffbu /* the step id of a job's batch script */
#define DROVER_STEP_EXTERN                                                                         \
    0xfffffffcu /* the step id of a job's extern step (processes adopted                           \
                   on a node outside any launched step) */

/* ABI 1.3: what a container may use. Zero or empty members set no limit. */
typedef struct drover_cont_limits {
    uint32_t struct_size;
    uint64_t mem_bytes; /* memory (RSS + page cache) the container may hold; exceeding it
                           kills processes in it (an out-of-memory end) */
    drover_str cpus;    /* CPU ids the container's processes may run on, "0-3,8" */
    /* ABI 1.6: device files of this node's generic resources (GRES) the step does not hold,
     * comma-separated absolute paths ("/dev/nvidia1,/dev/nvidia3"): its processes may not open
     * them. Empty: none. Read it only when DROVER_HAS(drover_cont_limits, limits, deny_devices). */
    drover_str deny_devices;
} drover_cont_limits;

/* ABI 1.3: what a container has used, for the whole container. A plugin that cannot tell a
 * figure leaves it 0; the core samples /proc for the rest. */
typedef struct drover_cont_usage {
    uint32_t struct_size;
    uint64_t mem_bytes;     /* memory held now */
    uint64_t max_mem_bytes; /* the most it has held since cont_create */
    uint64_t cpu_user_usec; /* CPU time of every process that ever ran in it */
    uint64_t cpu_sys_usec;
    uint64_t disk_read_bytes, disk_write_bytes;
    uint32_t oom_kills; /* processes killed because the memory limit was reached */
} drover_cont_usage;

typedef struct drover_proctrack_ops {
    uint32_t struct_size;
    /* Puts pid (the step's first process, already its own session leader) into a new container
     * for job_id/step_id and returns its id. */
    int (*cont_create)(void *state, uint32_t job_id, uint32_t step_id, int32_t pid,
                       drover_cont_id *cont_out, drover_error *err);
    /* Sends sig to every process in the container. DROVER_ENOENT when none is left. */
    int (*cont_signal)(void *state, drover_cont_id cont, int sig, drover_error *err);
    /* Lists up to *count pids in the container; sets *count to the number stored (at most the
     * capacity it came in with). A container with no process left lists none (DROVER_OK). */
    int (*cont_pids)(void *state, drover_cont_id cont, int32_t *pids, uint32_t *count,
                     drover_error *err);
    /* Forgets the container once it is empty (the caller has sent SIGKILL; the plugin may wait
     * briefly for the processes to leave, then answers DROVER_EBUSY if some remain). */
    int (*cont_destroy)(void *state, drover_cont_id cont, drover_error *err);
    /* ABI 1.3; either may be NULL when the plugin cannot enforce or measure. */
    /* Applies limits to the container (called before its first process runs). */
    int (*cont_limit)(void *state, drover_cont_id cont, const drover_cont_limits *limits,
                      drover_error *err);
    /* Fills *usage (whose struct_size the caller sets) for the container. */
    int (*cont_usage)(void *state, drover_cont_id cont, drover_cont_usage *usage,
                      drover_error *err);
} drover_proctrack_ops;

#ifdef __cplusplus
}
#endif

#endif /* DROVER_PROCTRACK_H */
