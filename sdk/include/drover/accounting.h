/* drover/accounting.h - job accounting stores (AccountingStorageType=accounting/<name>).
 *
 * The controller calls these from its accounting worker thread, never from the scheduling path,
 * so a slow store slows nothing else. Calls for one job, and for one node, arrive in order.
 */
#ifndef DROVER_ACCOUNTING_H
#define DROVER_ACCOUNTING_H

#include <string.h>

#include <drover/views.h>

#ifdef __cplusplus
extern "C" {
#endif

enum drover_acct_event {
    DROVER_ACCT_JOB_SUBMIT = 1,
    DROVER_ACCT_JOB_START = 2,
    DROVER_ACCT_JOB_END = 3,
    /* ABI 1.3: steps (step_event) */
    DROVER_ACCT_STEP_START = 4,
    DROVER_ACCT_STEP_END = 5,
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
    drover_str node_list; /* hostlist expression, empty before start */
    drover_str work_dir;
    uint32_t alloc_nodes;
    uint32_t alloc_cpus;
    uint32_t req_cpus;
    uint64_t req_mem_mb;
    uint32_t state;          /* enum drover_job_state */
    int32_t exit_status;     /* raw wait status: exit code << 8 | signal */
    uint32_t time_limit_min; /* DROVER_INFINITE when unlimited */
    int64_t submit_time, eligible_time, start_time, end_time; /* 0 when not yet */
    uint32_t cancelled_by; /* uid that cancelled, when state is CANCELLED */
    /* ABI 1.2 */
    uint32_t array_job_id;  /* the array this job is a task of; 0 when it is not a task */
    uint32_t array_task_id; /* its task id (meaningful only when array_job_id is set) */
    drover_str comment;     /* --comment */
    /* ABI 1.5 */
    drover_str qos; /* -q/--qos; empty when none was asked for (Slurm's "normal") */
    /* ABI 1.6 */
    drover_str
        alloc_gres; /* generic resources held over all its nodes: "gpu:2,nic:1"; empty = none */
    /* ABI 1.12: a heterogeneous job's component (sacct shows it as "LEADER+OFFSET") */
    uint32_t het_job_id;     /* its leader's job id; 0 when the job is not a component */
    uint32_t het_job_offset; /* its offset (meaningful only when het_job_id is set) */
} drover_acct_job;

/* ABI 1.3: one step of a job (.batch, .extern or a numbered srun step) with what it used. Sizes
 * are in bytes, times in microseconds; "max" figures name the node and task that had them. */
typedef struct drover_acct_step {
    uint32_t struct_size;
    uint32_t job_id;
    uint32_t step_id; /* 0.. for srun steps; DROVER_STEP_BATCH / DROVER_STEP_EXTERN */
    drover_str name;
    drover_str node_list;
    uint32_t nodes, tasks, cpus;
    uint64_t req_mem_mb; /* per node; 0 when not limited */
    uint32_t state;      /* enum drover_job_state */
    int32_t exit_status; /* raw wait status of the step (the highest of its tasks) */
    int64_t start_time, end_time;
    uint32_t cancelled_by; /* uid, when state is CANCELLED */
    uint32_t max_rss_task;
    uint64_t max_rss, ave_rss;
    drover_str max_rss_node;
    uint64_t max_vsize, ave_vsize;
    drover_str max_vsize_node;
    uint64_t ave_cpu_usec;                  /* CPU time per task, averaged over tasks */
    uint64_t user_cpu_usec, sys_cpu_usec;   /* totals over all tasks */
    uint64_t max_disk_read, max_disk_write; /* bytes, the most of one task */
    drover_str max_disk_read_node, max_disk_write_node;
    drover_str tres_alloc;                  /* "cpu=4,mem=1G,node=1" */
    uint64_t min_cpu_usec;                  /* CPU time of the task that used the least */
    uint64_t ave_disk_read, ave_disk_write; /* bytes, averaged over tasks */
} drover_acct_step;

/* A query; zero or empty members do not filter. */
typedef struct drover_acct_query {
    uint32_t struct_size;
    const uint32_t *job_ids;
    uint32_t job_id_count;
    uint32_t user_id;    /* DROVER_NO_VAL: any user */
    int64_t start_after; /* jobs that ended after (or are not yet ended) */
    int64_t end_before;  /* jobs that started or were submitted before */
    /* ABI 1.3 */
    uint32_t duplicates; /* non-zero: also the earlier runs of requeued jobs (sacct -D) */
    /* ABI 1.5: sacct's filters. A job matches when every non-empty list holds its value (names
     * compare exactly; states are base states, the job's state & DROVER_ACCT_STATE_BASE). A store
     * that finds these members applies them; the core checks every job a store emits again, so
     * a store built before 1.5 answers the same. */
    const uint32_t *user_ids; /* any of these users (and user_id when set) */
    uint32_t user_id_count;
    uint32_t state_count;
    const uint32_t *states;
    const drover_str *accounts;
    uint32_t account_count;
    uint32_t partition_count;
    const drover_str *partitions;
    const drover_str *names; /* job names */
    uint32_t name_count;
    /* ABI 1.7: sacct -M/-L and -N. clusters: the jobs of these clusters; none: of every cluster
     * the store holds (the controller names its own ClusterName unless sacct asks for all).
     * nodes: jobs that ran on any of
     * these nodes (names, each alone). node_list_match is the core's: whether a job's node_list
     * (a hostlist expression, "c[1-4],d7") names any of q's nodes; drover_acct_filters_match
     * calls it. */
    const drover_str *clusters;
    uint32_t cluster_count;
    uint32_t node_count;
    const drover_str *nodes;
    int (*node_list_match)(const struct drover_acct_query *q, drover_str node_list);
} drover_acct_query;

/* ABI 1.5: the base state in a job's state (the rest are flags). */
#define DROVER_ACCT_STATE_BASE 0xffu

/* ABI 1.5: whether job passes the filters of query that ABI 1.5 and 1.7 appended (accounts,
 * partitions, names, states, user_ids; clusters and nodes), for a store that reads its records
 * before filtering; the others (job ids, times, user_id) are the store's own. */
static inline int drover_acct_str_in(const drover_str *list, uint32_t count, drover_str v) {
    for (uint32_t i = 0; i < count; ++i)
        if (list[i].len == v.len && (v.len == 0 || memcmp(list[i].ptr, v.ptr, v.len) == 0))
            return 1;
    return 0;
}

static inline int drover_acct_u32_in(const uint32_t *list, uint32_t count, uint32_t v) {
    for (uint32_t i = 0; i < count; ++i)
        if (list[i] == v) return 1;
    return 0;
}

static inline int drover_acct_filters_match(const drover_acct_query *q,
                                            const drover_acct_job *job) {
    if (!DROVER_HAS(drover_acct_query, q, name_count)) return 1;
    if (q->user_id_count && !drover_acct_u32_in(q->user_ids, q->user_id_count, job->user_id))
        return 0;
    if (q->state_count &&
        !drover_acct_u32_in(q->states, q->state_count, job->state & DROVER_ACCT_STATE_BASE))
        return 0;
    if (q->account_count && !drover_acct_str_in(q->accounts, q->account_count, job->account))
        return 0;
    if (q->partition_count &&
        !drover_acct_str_in(q->partitions, q->partition_count, job->partition))
        return 0;
    if (q->name_count && !drover_acct_str_in(q->names, q->name_count, job->name)) return 0;
    if (!DROVER_HAS(drover_acct_query, q, node_list_match)) return 1;
    if (q->cluster_count && !drover_acct_str_in(q->clusters, q->cluster_count, job->cluster))
        return 0;
    if (q->node_count && (!q->node_list_match || !q->node_list_match(q, job->node_list))) return 0;
    return 1;
}

/* Called once per matching job; returns 0 to go on, non-zero to stop. */
typedef int (*drover_acct_emit_fn)(void *arg, const drover_acct_job *job);
/* ABI 1.3: called once per step of a matching job, after that job's emit. */
typedef int (*drover_acct_step_emit_fn)(void *arg, const drover_acct_step *step);

/* ABI 1.3: what sacctmgr manages. Clusters, accounts and users are named; an association ties a
 * cluster, an account, optionally a user and a partition together (user empty: the account's own
 * association in the tree, under parent). */
enum drover_acct_assoc_kind {
    DROVER_ACCT_CLUSTER = 1,
    DROVER_ACCT_ACCOUNT = 2,
    DROVER_ACCT_USER = 3,
    DROVER_ACCT_ASSOC = 4,
    DROVER_ACCT_QOS = 5, /* ABI 1.8: a QOS, named */
    /* A federation, named; its clusters name it in their attrs (federation=). A store keeps these
     * like any other kind, by kind and name. */
    DROVER_ACCT_FEDERATION = 6,
    /* Where a cluster's controllers listen, named by the cluster and written only by its own
     * controller in control (attrs hosts=NAME(ADDR),...;port=N). */
    DROVER_ACCT_CONTROLLER = 7,
};

enum drover_admin_level {
    DROVER_ADMIN_NONE = 0,
    DROVER_ADMIN_OPERATOR = 1,
    DROVER_ADMIN_ADMINISTRATOR = 2,
};

/* One cluster, account, user or association. Its key: kind and name, or for an association kind,
 * cluster, account, user and partition. Strings are borrowed for the call. */
typedef struct drover_acct_assoc {
    uint32_t struct_size;
    uint32_t kind;                                /* enum drover_acct_assoc_kind */
    drover_str name;                              /* cluster, account or user: its name */
    drover_str cluster, account, user, partition; /* association: its key */
    drover_str parent; /* association: the parent account (the account's own for users) */
    drover_str description, organization; /* account */
    drover_str default_account;           /* user */
    uint32_t admin_level;                 /* user: enum drover_admin_level */
    /* ABI 1.8: an association's or a QOS's settings (limits, QOS list, priority, flags, ...) as
     * the core writes them: "key=value" items joined by ';'. A store keeps the text as given and
     * returns it unchanged; only the core reads it. */
    drover_str attrs;
} drover_acct_assoc;

/* Called once per stored record; returns 0 to go on, non-zero to stop. */
typedef int (*drover_acct_assoc_emit_fn)(void *arg, const drover_acct_assoc *rec);

/* ABI 1.4: a node event (sacctmgr show event): a node went DOWN (by an administrator, or "Not
 * responding") or was drained, with the reason and who gave it, from start_time until the node
 * returned or its state or reason changed (end_time; 0 while it lasts). Its key is cluster,
 * node_name and start_time. Strings are borrowed for the call. */
typedef struct drover_acct_node_event {
    uint32_t struct_size;
    uint32_t state;      /* enum drover_node_state when the event began */
    uint32_t flags;      /* DROVER_NODE_FLAG_* when the event began */
    uint32_t reason_uid; /* who set the reason (SlurmUser for the controller's own) */
    drover_str cluster;
    drover_str node_name;
    drover_str reason;
    int64_t start_time;
    int64_t end_time; /* 0 while the event lasts */
} drover_acct_node_event;

/* ABI 1.4: which node events a query wants; zero or empty members do not filter. An event
 * matches when it overlaps [period_start, period_end]: it began at or before period_end and had
 * not ended before period_start. */
typedef struct drover_acct_event_query {
    uint32_t struct_size;
    uint32_t cluster_count;
    const drover_str *clusters;   /* the events of these clusters only */
    const drover_str *node_names; /* of these nodes only */
    uint32_t node_count;
    int64_t period_start;
    int64_t period_end;
} drover_acct_event_query;

/* ABI 1.4: called once per matching node event; returns 0 to go on, non-zero to stop. */
typedef int (*drover_acct_node_event_emit_fn)(void *arg, const drover_acct_node_event *ev);

typedef struct drover_acct_ops {
    uint32_t struct_size;
    /* Records one event of a job (an insert or update of its record). */
    int (*job_event)(void *state, int event, const drover_acct_job *job, drover_error *err);
    /* Streams the matching job records in job id order to emit. */
    int (*job_query)(void *state, const drover_acct_query *query, drover_acct_emit_fn emit,
                     void *arg, drover_error *err);
    /* ABI 1.3 */
    /* Records a step's start or end (an insert or update of its record). */
    int (*step_event)(void *state, int event, const drover_acct_step *step, drover_error *err);
    /* Like job_query, and also streams each matching job's steps to step_emit right after the
     * job; step_emit may be NULL for jobs only. Replaces job_query when the core finds it. */
    int (*job_step_query)(void *state, const drover_acct_query *query, drover_acct_emit_fn emit,
                          drover_acct_step_emit_fn step_emit, void *arg, drover_error *err);
    /* ABI 1.3: sacctmgr. Stores puts (insert or replace by key) and removes (by key; absent ones
     * are no error) in one transaction: all or nothing. */
    int (*assoc_update)(void *state, const drover_acct_assoc *const *puts, uint32_t put_count,
                        const drover_acct_assoc *const *removes, uint32_t remove_count,
                        drover_error *err);
    /* Streams every stored cluster, account, user and association to emit. */
    int (*assoc_list)(void *state, drover_acct_assoc_emit_fn emit, void *arg, drover_error *err);
    /* ABI 1.4: node events. Records one: an event that lasts (end_time 0) is stored whole,
     * replacing what is stored under its key; an ended one sets the end time of the event stored
     * under its key (keeping its state, reason and user), or is stored whole when none is. The
     * core may send the same record again after a restart: storing it twice changes nothing. */
    int (*node_event)(void *state, const drover_acct_node_event *ev, drover_error *err);
    /* Streams the matching node events to emit, ordered by cluster, start time, node name. */
    int (*node_event_query)(void *state, const drover_acct_event_query *query,
                            drover_acct_node_event_emit_fn emit, void *arg, drover_error *err);
} drover_acct_ops;

#ifdef __cplusplus
}
#endif

#endif /* DROVER_ACCOUNTING_H */
