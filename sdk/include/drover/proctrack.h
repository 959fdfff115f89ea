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

#define DROVER_STEP_BATCH 0xfffffffbu  /* the step id of a job's batch script */

typedef struct drover_proctrack_ops {
    uint32_t struct_size;
    /* Puts pid (the step's first process, already its own session leader) into a new container
     * for job_id/step_id and returns its id. */
    int (*cont_create)(void *state, uint32_t job_id, uint32_t step_id, int32_t pid,
                       drover_cont_id *cont_out, drover_error *err);
    /* Sends sig to every process in the container. DROVER_ENOENT when none is left. */
    int (*cont_signal)(void *state, drover_cont_id cont, int sig, drover_error *err);
    /* Lists up to *count pids in the container; sets *count to the number found. */
    int (*cont_pids)(void *state, drover_cont_id cont, int32_t *pids, uint32_t *count,
                     drover_error *err);
    /* Forgets the container once it is empty. */
    int (*cont_destroy)(void *state, drover_cont_id cont, drover_error *err);
} drover_proctrack_ops;

#ifdef __cplusplus
}
#endif

#endif /* DROVER_PROCTRACK_H */
