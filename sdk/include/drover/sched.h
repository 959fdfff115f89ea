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

    /* ABI 1.1: what a policy that plans ahead (backfill) needs. */
    /* The node table: node i is bit i of every bitmap. Borrowed for the pass. */
    uint32_t (*node_count)(drover_sched_pass *pass);
    const drover_node_view *(*node)(drover_sched_pass *pass, uint32_t i);
    /* Running jobs (with start_time and end_time set). Borrowed for the pass. */
    uint32_t (*running_count)(drover_sched_pass *pass);
    const drover_job_view *(*running_job)(drover_sched_pass *pass, uint32_t i);
    /* The nodes a running job holds (into nodes, sized node_count by the caller) and the CPUs on
     * each (into cpus[node], an array of node_count, may be NULL). */
    int (*job_nodes)(drover_sched_pass *pass, uint32_t job_id, drover_bitmap *nodes,
                     uint32_t *cpus);
    /* The nodes a job may ever use: its partition's nodes that are up, responding and not
     * drained, less its excluded nodes. */
    int (*usable_nodes)(drover_sched_pass *pass, uint32_t job_id, drover_bitmap *nodes);
    /* Like try_start, but the job may only use nodes set in allowed (nodes a higher-priority job
     * has been promised stay out of reach). */
    int (*try_start_on)(drover_sched_pass *pass, uint32_t job_id, drover_bitmap_view allowed);
    /* Records the expected start time and nodes of a pending job (squeue %S, scontrol show job
     * StartTime=, SchedNodeList=). */
    void (*set_expected_start)(drover_sched_pass *pass, uint32_t job_id, int64_t when,
                               drover_bitmap_view nodes);
    /* SchedulerParameters as written ("bf_interval=30,bf_window=1440"); borrowed. */
    drover_str (*parameters)(drover_sched_pass *pass);

    /* ABI 1.10: advance reservations. A job in a reservation may use only the reservation's
     * nodes, and only while it lasts; other jobs keep off reserved nodes while reservations
     * last. usable_nodes leaves out what is out of a job's reach now and for good; these are
     * the stretches of time in which more is: window i (0 <= i < blocked_count) bars the job
     * from the nodes it sets (into nodes, sized node_count by the caller, cleared first) from
     * *start to *end (seconds since the epoch; *end 0: for good). Jobs with the same partition
     * and reservation get the same windows. */
    uint32_t (*blocked_count)(drover_sched_pass *pass, uint32_t job_id);
    int (*blocked_window)(drover_sched_pass *pass, uint32_t job_id, uint32_t i,
                          drover_bitmap *nodes, int64_t *start, int64_t *end);
} drover_sched_host;

/* ABI 1.4: what a plugin that backfills counts, for sdiag's "Backfilling stats". A cycle is one
 * backfill plan (not every pass makes one). Times are in microseconds. The sums and cycles count
 * from the last reset (sdiag -r); backfilled_jobs from the plugin's start. */
typedef struct drover_sched_stats {
    uint32_t struct_size;
    uint32_t last_depth;        /* pending jobs the last cycle went through */
    uint32_t last_depth_try;    /* of which it tried to place (start now or reserve for) */
    uint32_t last_queue_length; /* pending jobs when the last cycle began */
    uint32_t last_table_size;   /* entries in the last cycle's map of free resources over time */
    uint64_t backfilled_jobs;   /* jobs it started ahead of higher-priority ones, since start */
    uint64_t backfilled_jobs_since_reset;
    uint64_t cycles;
    int64_t last_cycle_when; /* seconds since the epoch; 0: no cycle yet */
    uint64_t last_cycle_usec, max_cycle_usec, cycle_usec_sum;
    uint64_t depth_sum, depth_try_sum, queue_length_sum, table_size_sum;
} drover_sched_stats;

typedef struct drover_sched_ops {
    uint32_t struct_size;
    /* Priority of a newly submitted job (higher first). May be NULL: the core then gives earlier
     * submissions higher priority. */
    uint32_t (*job_priority)(void *state, const drover_job_view *job);
    /* One scheduling pass. */
    int (*schedule)(void *state, const drover_sched_host *host, drover_sched_pass *pass,
                    drover_error *err);
    /* ABI 1.4: fills *out (up to out->struct_size, which the core sets) with the plugin's
     * backfill counters, then, when reset is non-zero, starts those kept since the last reset
     * again. Called on the core's loop, never during a pass. May be NULL: no backfill counters
     * (sdiag then prints no backfill section). */
    int (*stats)(void *state, int reset, drover_sched_stats *out);
} drover_sched_ops;

#ifdef __cplusplus
}
#endif

#endif /* DROVER_SCHED_H */
