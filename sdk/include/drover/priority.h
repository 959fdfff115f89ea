/* drover/priority.h - priority plugins (PriorityType=priority/<name>), ABI 1.9.
 *
 * The core keeps the association tree and each association's usage: billing-seconds of the
 * jobs charged to it and to everything under it, decayed with PriorityDecayHalfLife and kept in
 * the state store (so a restart or a failover neither loses nor repeats any). A priority plugin
 * turns them into numbers. Every PriorityCalcPeriod the core lends it the whole tree once
 * (fairshare()), then asks job_priority() for each pending job; a job submitted in between is
 * asked at once, against the tree of the last fairshare() call. Both run on the controller's
 * loop: keep them quick (the core times them for sdiag).
 *
 * Without a priority plugin (PriorityType=priority/basic, the default), earlier submissions
 * come first, moved down by --nice.
 */
#ifndef DROVER_PRIORITY_H
#define DROVER_PRIORITY_H

#include <drover/views.h>

#ifdef __cplusplus
extern "C" {
#endif

/* FairShare=parent: the association is scheduled as its parent account. */
#define DROVER_PRIORITY_SHARES_PARENT 0xffffffffu

/* One association of the fair-share tree. The table lists parents before their children, so a
 * plugin can walk it in one pass each way. OWNERSHIP: the core's; the strings are borrowed for
 * the call, the numbers the plugin sets are kept by the core until the next fairshare() call. */
typedef struct drover_priority_assoc {
    uint32_t struct_size;
    uint32_t parent;     /* index of the parent; DROVER_NO_VAL for the root (index 0) */
    drover_str account;  /* the account (for a user's association: the account it is under) */
    drover_str user;     /* empty for an account */
    uint32_t shares_raw; /* FairShare= (1 unless set); DROVER_PRIORITY_SHARES_PARENT */
    uint32_t priority;   /* the association's Priority= (0 unless set) */
    double usage_raw;    /* decayed billing-seconds: its own jobs' and its children's */
    /* Set by fairshare(), shown by sshare: */
    double shares_norm; /* its share of the whole machine, 0..1 */
    double usage_norm;  /* usage_raw over the root's */
    double usage_eff;   /* the usage that fair-share counts against it */
    double level_fs;    /* Fair Tree's LevelFS (infinite for no usage); 0 for classic */
    double fairshare;   /* the fair-share factor of a job charged here, 0..1 */
} drover_priority_assoc;

/* The cluster a job's size and TRES are measured against. */
typedef struct drover_priority_cluster {
    uint32_t struct_size;
    int64_t now;                        /* seconds since the epoch */
    uint64_t cpus, nodes, mem_mb, gpus; /* configured totals */
    uint32_t max_qos_priority;          /* the highest QOS Priority= (0: none set) */
    uint32_t max_assoc_priority;        /* the highest association Priority= (0: none set) */
    uint32_t max_partition_factor;      /* the highest partition PriorityJobFactor (at least 1) */
} drover_priority_cluster;

/* A pending job as priority sees it. */
typedef struct drover_priority_job {
    uint32_t struct_size;
    const drover_job_view *job;
    uint32_t assoc;            /* index into the tree; DROVER_NO_VAL: none (no accounting) */
    int64_t eligible_time;     /* when it became able to run (age counts from here); 0: not yet */
    uint32_t qos_priority;     /* its QOS's Priority= */
    uint32_t partition_factor; /* its partition's PriorityJobFactor */
    uint64_t cpus, nodes, mem_mb, gpus; /* what it asks for, over the whole job */
    int64_t site_factor;                /* the job's site factor (scontrol update SiteFactor=) */
} drover_priority_job;

/* A job's factors, each 0..1 before its weight; or, from weights(), each weight in its place.
 * The TRES factors are in drover_priority_factors.tres in this order: cpu, mem, node, gres/gpu. */
#define DROVER_PRIORITY_TRES_COUNT 4
typedef struct drover_priority_factors {
    uint32_t struct_size;
    double age, assoc, fairshare, job_size, partition, qos;
    double tres[DROVER_PRIORITY_TRES_COUNT];
    int64_t site; /* added as it is */
    int64_t nice; /* subtracted as it is */
} drover_priority_factors;

typedef struct drover_priority_ops {
    uint32_t struct_size;
    /* Sets the fair-share numbers of every association of the tree (count entries). */
    int (*fairshare)(void *state, drover_priority_assoc *assocs, uint32_t count, drover_error *err);
    /* The priority of a pending job (higher first; 0 is kept for held jobs, so at least 1), and
     * its factors into *out when out is not NULL. assocs is the tree of the last fairshare()
     * call, with the plugin's numbers in it. */
    uint32_t (*job_priority)(void *state, const drover_priority_cluster *cluster,
                             const drover_priority_assoc *assocs, uint32_t count,
                             const drover_priority_job *job, drover_priority_factors *out);
    /* The weights, in the factors' places (sprio -w). */
    void (*weights)(void *state, drover_priority_factors *out);
    /* 1 when fair-share ranks the tree (Fair Tree, whose LevelFS sshare shows), 0 classic. */
    int (*fair_tree)(void *state);
} drover_priority_ops;

#ifdef __cplusplus
}
#endif

#endif /* DROVER_PRIORITY_H */
