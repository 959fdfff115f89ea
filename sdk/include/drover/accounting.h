/* drover/accounting.h - job accounting stores (AccountingStorageType=accounting/<name>).
 *
 * The controller calls these from its accounting worker thread, never from the scheduling path,
 * so a slow store slows nothing else. Calls for one job arrive in order.
 */
#ifndef DROVER_ACCOUNTING_H
#define DROVER_ACCOUNTING_H

#include <drover/views.h>

#ifdef __cplusplus
extern "C" {
#endif

enum drover_acct_event {
    DROVER_ACCT_JOB_SUBMIT = 1,
    DROVER_ACCT_JOB_START = 2,
    DROVER_ACCT_JOB_END = 3,
};

/* Everything the store keeps about one job. Strings are borrowed for the call. */
typedef struct drover_acct_job {
    uint32_t struct_size;
    uint32_t job_id;
    uint32_t user_id, group_id;
    drover_str cluster;
    drover_str name;
    drover_str partition;
    drover_str account;
    drover_str node_list;     /* hostlist expression, empty before start */
    drover_str work_dir;
    uint32_t alloc_nodes;
    uint32_t alloc_cpus;
    uint32_t req_cpus;
    uint64_t req_mem_mb;
    uint32_t state;           /* enum drover_job_state */
    int32_t exit_status;      /* raw wait status: exit code << 8 | signal */
    uint32_t time_limit_min;  /* DROVER_INFINITE when unlimited */
    int64_t submit_time, eligible_time, start_time, end_time; /* 0 when not yet */
    uint32_t cancelled_by;    /* uid that cancelled, when state is CANCELLED */
    /* ABI 1.2 */
    uint32_t array_job_id;    /* the array this job is a task of; 0 when it is not a task */
    uint32_t array_task_id;   /* its task id (meaningful only when array_job_id is set) */
    drover_str comment;       /* --comment */
} drover_acct_job;

/* A query; zero or empty members do not filter. */
typedef struct drover_acct_query {
    uint32_t struct_size;
    const uint32_t *job_ids;
    uint32_t job_id_count;
    uint32_t user_id;          /* DROVER_NO_VAL: any user */
    int64_t start_after;       /* jobs that ended after (or are not yet ended) */
    int64_t end_before;        /* jobs that started or were submitted before */
} drover_acct_query;

/* Called once per matching job; returns 0 to go on, non-zero to stop. */
typedef int (*drover_acct_emit_fn)(void *arg, const drover_acct_job *job);

typedef struct drover_acct_ops {
    uint32_t struct_size;
    /* Records one event of a job (an insert or update of its record). */
    int (*job_event)(void *state, int event, const drover_acct_job *job, drover_error *err);
    /* Streams the matching job records in job id order to emit. */
    int (*job_query)(void *state, const drover_acct_query *query, drover_acct_emit_fn emit,
                     void *arg, drover_error *err);
} drover_acct_ops;

#ifdef __cplusplus
}
#endif

#endif /* DROVER_ACCOUNTING_H */
