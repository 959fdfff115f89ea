/* drover/select.h - node selection plugins (SelectType=select/<name>).
 *
 * The core owns node state (up, down, drained, which partition) and hands the plugin, for each
 * decision, the bitmap of nodes the job may use at all. The plugin owns what is allocated on
 * each node: it learns of allocations through job_begin and job_fini, and after a controller
 * restart the core replays job_begin for every running job before the first job_test.
 */
#ifndef DROVER_SELECT_H
#define DROVER_SELECT_H

#include <drover/views.h>

#ifdef __cplusplus
extern "C" {
#endif

/* job_test modes */
#define DROVER_SELECT_RUN_NOW 0   /* pick from what is free now */
#define DROVER_SELECT_TEST_ONLY 1 /* ignore current allocations: could the job ever run? */

/* What a job holds on one node (ABI 1.1), for the job's environment and scontrol show job -d.
 * OWNERSHIP: the caller's; the plugin fills it. */
typedef struct drover_node_alloc {
    uint32_t struct_size;
    uint32_t cpus;     /* CPUs held */
    uint64_t mem_mb;   /* memory held; 0 when memory is not tracked */
    char cpu_ids[128]; /* the CPU ids held, as a list ("0-3,8"); empty when not tracked */
    char gres[128];    /* generic resource indexes held, "gpu:0-1,nic:0"; empty = none */
} drover_node_alloc;

typedef struct drover_select_ops {
    uint32_t struct_size;
    /* Gives the plugin the node table. nodes[i] is bit i in every bitmap. The array stays valid
     * until the next node_init or fini. Called once before any job_test and again after each
     * reconfigure (followed by job_begin replays). */
    int (*node_init)(void *state, const drover_node_view *nodes, uint32_t count, drover_error *err);
    /* Chooses nodes for job among the bits set in usable, writing the choice into picked
     * (cleared by the core beforehand). Returns DROVER_OK with picked set, DROVER_EBUSY when the
     * job fits these nodes but not now, or DROVER_ENOSPC when it can never fit them. */
    int (*job_test)(void *state, const drover_job_view *job, drover_bitmap_view usable, int mode,
                    drover_bitmap *picked, drover_error *err);
    /* Records that job now holds nodes. */
    int (*job_begin)(void *state, const drover_job_view *job, drover_bitmap_view nodes,
                     drover_error *err);
    /* Releases what job_begin recorded. */
    int (*job_fini)(void *state, const drover_job_view *job, drover_error *err);
    /* CPUs the job holds on node index node (for SLURM_CPUS_ON_NODE). May be NULL: then a job
     * holds all CPUs of its nodes. */
    uint32_t (*job_cpus_on_node)(void *state, uint32_t job_id, uint32_t node);
    /* ABI 1.1: fills out with what job holds on node index node. DROVER_ENOENT when it holds
     * nothing there. May be NULL: then the job holds job_cpus_on_node CPUs and nothing else. */
    int (*job_alloc_detail)(void *state, uint32_t job_id, uint32_t node, drover_node_alloc *out);
    /* ABI 1.11: the job was suspended (scontrol suspend, PreemptMode=SUSPEND). Its CPUs are free
     * for other jobs until job_resume; it keeps its memory and generic resources. After a
     * controller restart the core replays job_begin then job_suspend for a suspended job. May be
     * NULL: then a suspended job keeps all it holds. */
    int (*job_suspend)(void *state, const drover_job_view *job, drover_error *err);
    /* ABI 1.11: the suspended job runs again on the CPUs it had, whoever else was given them
     * meanwhile (as in Slurm, the CPUs may then be shared). NULL exactly when job_suspend is. */
    int (*job_resume)(void *state, const drover_job_view *job, drover_error *err);
} drover_select_ops;

#ifdef __cplusplus
}
#endif

#endif /* DROVER_SELECT_H */
