/* drover/sched.h - scheduling plugins (SchedulerType=sched/<name>).
 *
 * The core runs a scheduling pass on events (submit, job end, node up, partition change) and on a
 * timer. In each pass it calls schedule() once; the plugin walks the pending jobs the core lends
 * it and asks the core to start those it chooses, in the order it chooses. The core checks
 * eligibility (holds, partition state and limits) and resources (through the select plugin).
 */
#ifndef DROVER_SCHED_H
#define DROVER_SCHED_H

#include <drover/views.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque handle of one scheduling pass; valid only inside schedule(). */
typedef struct drover_sched_pass drover_sched_pass;

/* The core's services during a pass. OWNERSHIP: the core's; valid only inside schedule(). */
typedef struct drover_sched_host {
    uint32_t struct_size;
    /* Number of pending jobs in this pass. */
    uint32_t (*pending_count)(drover_sched_pass *pass);
    /* Pending job i (0 <= i < pending_count), in submit order. Borrowed for the pass. */
    const drover_job_view *(*pending_job)(drover_sched_pass *pass, uint32_t i);
    /* Tries to start a job now. DROVER_OK: started. DROVER_EBUSY: eligible but its resources
     * are busy. DROVER_EPERM: not eligible now (held, partition down, begin time). DROVER_ENOSPC:
     * can never run (the core marks it). */
    int (*try_start)(drover_sched_pass *pass, uint32_t job_id);
    /* The pass's clock, seconds since the epoch. */
    int64_t (*now)(drover_sched_pass *pass);
} drover_sched_host;

typedef struct drover_sched_ops {
    uint32_t struct_size;
    /* Priority of a newly submitted job (higher first). May be NULL: the core then gives earlier
     * submissions higher priority. */
    uint32_t (*job_priority)(void *state, const drover_job_view *job);
    /* One scheduling pass. */
    int (*schedule)(void *state, const drover_sched_host *host, drover_sched_pass *pass,
                    drover_error *err);
} drover_sched_ops;

#ifdef __cplusplus
}
#endif

#endif /* DROVER_SCHED_H */
