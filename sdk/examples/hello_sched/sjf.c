/* sjf.c - sched/sjf: shortest job first, an out-of-tree Drover scheduler written in plain C.
 *
 * Each pass orders the pending jobs by time limit (shortest first; unlimited jobs last), then by
 * priority (highest first), then by job id (oldest first), and asks the core to start them in
 * that order. The first job of a partition that cannot start because its resources are busy
 * (DROVER_EBUSY) stops that partition for the rest of the pass, so no later job overtakes it
 * there; other partitions go on.
 *
 * It uses only the installed SDK headers: drover/plugin.h and drover/sched.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drover/plugin.h>
#include <drover/sched.h>

/* One instance: the core's context and host table, kept to log with. */
struct sjf_state {
    drover_ctx *ctx;
    const drover_host_api *host;
};

static void sjf_log(const struct sjf_state *s, int level, const char *msg) {
    drover_str text = {msg, strlen(msg)};
    s->host->log(s->ctx, level, text);
}

/* qsort order: shorter time limit, then higher priority, then lower job id. */
static int sjf_compare(const void *pa, const void *pb) {
    const drover_job_view *a = *(const drover_job_view *const *)pa;
    const drover_job_view *b = *(const drover_job_view *const *)pb;
    if (a->time_limit_min != b->time_limit_min)
        return a->time_limit_min < b->time_limit_min ? -1 : 1;
    if (a->priority != b->priority) return a->priority > b->priority ? -1 : 1;
    if (a->job_id != b->job_id) return a->job_id < b->job_id ? -1 : 1;
    return 0;
}

static int same_str(drover_str a, drover_str b) {
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static int is_blocked(const drover_str *blocked, size_t count, drover_str partition) {
    for (size_t i = 0; i < count; ++i)
        if (same_str(blocked[i], partition)) return 1;
    return 0;
}

static int sjf_schedule(void *state, const drover_sched_host *host, drover_sched_pass *pass,
                        drover_error *err) {
    const struct sjf_state *s = state;
    uint32_t n = host->pending_count(pass);
    if (n == 0) return DROVER_OK;

    /* The views and their strings are the core's, valid for the whole pass. */
    const drover_job_view **jobs = malloc(n * sizeof *jobs);
    drover_str *blocked = malloc(n * sizeof *blocked);
    if (!jobs || !blocked) {
        free(jobs);
        free(blocked);
        snprintf(err->text, sizeof err->text, "sched/sjf: out of memory for %u jobs", n);
        return DROVER_EIO;
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const drover_job_view *job = host->pending_job(pass, i);
        if (job) jobs[count++] = job;
    }
    qsort(jobs, count, sizeof *jobs, sjf_compare);

    size_t nblocked = 0;
    uint32_t started = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (is_blocked(blocked, nblocked, jobs[i]->partition)) continue;
        int rc = host->try_start(pass, jobs[i]->job_id);
        if (rc == DROVER_OK)
            ++started;
        else if (rc == DROVER_EBUSY)
            blocked[nblocked++] = jobs[i]->partition;
    }
    free(jobs);
    free(blocked);

    if (started > 0) {
        char msg[64];
        snprintf(msg, sizeof msg, "pass started %u job(s)", started);
        sjf_log(s, DROVER_LOG_DEBUG, msg);
    }
    return DROVER_OK;
}

static int sjf_init(drover_ctx *ctx, const drover_host_api *host, void **state_out,
                    drover_error *err) {
    struct sjf_state *s = malloc(sizeof *s);
    if (!s) {
        snprintf(err->text, sizeof err->text, "sched/sjf: out of memory");
        return DROVER_EIO;
    }
    s->ctx = ctx;
    s->host = host;
    *state_out = s;
    sjf_log(s, DROVER_LOG_INFO, "shortest job first");
    return DROVER_OK;
}

static void sjf_fini(void *state) {
    free(state);
}

static const drover_sched_ops sjf_ops = {
    .struct_size = sizeof(drover_sched_ops),
    .job_priority = NULL, /* the core's default priority */
    .schedule = sjf_schedule,
};

static const drover_plugin_desc sjf_desc = {
    .struct_size = sizeof(drover_plugin_desc),
    .abi_major = DROVER_ABI_MAJOR,
    .abi_minor = DROVER_ABI_MINOR,
    .type = "sched",
    .name = "sjf",
    .version = "1.0.0",
    .init = sjf_init,
    .fini = sjf_fini,
    .ops = &sjf_ops,
};

/* The only exported symbol. The core checks the ABI versions itself, so always answer. */
DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    (void)host_major;
    (void)host_minor;
    return &sjf_desc;
}
