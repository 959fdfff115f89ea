/* smallfair.c - priority/smallfair: an out-of-tree Drover priority plugin in plain C.
 *
 * Fair-share: each association's factor is 2^(-usage/shares), where usage is its share of its
 * siblings' usage and shares its share of their shares (1 for an association that has used
 * nothing). A job's priority is
 *     W x fair-share  +  W / 10 x (1 - size)
 * where size is the mean of the job's share of the cluster's CPUs and of its memory, so smaller
 * jobs of less-used users come first. The weight is read from slurm.conf's
 * PriorityWeightFairshare (W, default 10000).
 *
 * It uses only the installed SDK headers: drover/plugin.h and drover/priority.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <drover/plugin.h>
#include <drover/priority.h>

struct smallfair {
    double weight;
};

static int sf_fairshare(void *state, drover_priority_assoc *a, uint32_t n, drover_error *err) {
    (void)state;
    (void)err;
    for (uint32_t i = 0; i < n; ++i) {
        double shares = 0, usage = 0;
        uint32_t p = a[i].parent;
        a[i].fairshare = 1;
        if (p >= n) continue;            /* the root */
        for (uint32_t j = 1; j < n; ++j) /* the siblings, i included */
            if (a[j].parent == p) {
                shares += a[j].shares_raw == DROVER_PRIORITY_SHARES_PARENT ? 0 : a[j].shares_raw;
                usage += a[j].usage_raw;
            }
        double s = shares > 0 ? a[i].shares_raw / shares : 0;
        double u = usage > 0 ? a[i].usage_raw / usage : 0;
        a[i].shares_norm = s;
        a[i].usage_eff = u;
        a[i].fairshare = s > 0 ? pow(2.0, -u / s) : 0;
    }
    return DROVER_OK;
}

static uint32_t sf_job_priority(void *state, const drover_priority_cluster *c,
                                const drover_priority_assoc *a, uint32_t n,
                                const drover_priority_job *job, drover_priority_factors *out) {
    const struct smallfair *s = state;
    double fs = job->assoc < n ? a[job->assoc].fairshare : 1;
    double cpus = c->cpus ? (double)job->cpus / (double)c->cpus : 0;
    double mem = c->mem_mb ? (double)job->mem_mb / (double)c->mem_mb : 0;
    double size = (cpus > 1 ? 1 : cpus) / 2 + (mem > 1 ? 1 : mem) / 2;
    if (out) {
        out->fairshare = fs;
        out->job_size = 1 - size;
    }
    double p = s->weight * fs + s->weight / 10 * (1 - size);
    return p < 1 ? 1 : (uint32_t)p;
}

static void sf_weights(void *state, drover_priority_factors *out) {
    const struct smallfair *s = state;
    out->fairshare = s->weight;
    out->job_size = s->weight / 10;
}

static int sf_init(drover_ctx *ctx, const drover_host_api *host, void **state_out,
                   drover_error *err) {
    struct smallfair *s = calloc(1, sizeof *s);
    if (!s) return DROVER_EIO;
    s->weight = 10000;
    drover_str key = {"PriorityWeightFairshare", strlen("PriorityWeightFairshare")}, value;
    if (host->conf_get(ctx, key, &value) == DROVER_OK) {
        char buf[32] = {0};
        char *end = NULL;
        memcpy(buf, value.ptr, value.len < sizeof buf - 1 ? value.len : sizeof buf - 1);
        s->weight = strtod(buf, &end);
        if (end == buf || *end != '\0' || s->weight < 0) {
            strcpy(err->text, "PriorityWeightFairshare: expected a number");
            free(s);
            return DROVER_EINVAL;
        }
    }
    *state_out = s;
    return DROVER_OK;
}

static void sf_fini(void *state) {
    free(state);
}

static const drover_priority_ops sf_ops = {
    .struct_size = sizeof(drover_priority_ops),
    .fairshare = sf_fairshare,
    .job_priority = sf_job_priority,
    .weights = sf_weights,
    .fair_tree = NULL, /* classic-style numbers: sshare shows no LevelFS */
};

static const drover_plugin_desc sf_desc = {
    .struct_size = sizeof(drover_plugin_desc),
    .abi_major = DROVER_ABI_MAJOR,
    .abi_minor = DROVER_ABI_MINOR,
    .type = "priority",
    .name = "smallfair",
    .version = "1.0.0",
    .init = sf_init,
    .fini = sf_fini,
    .ops = &sf_ops,
};

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t major, uint16_t minor) {
    (void)minor;
    return major == DROVER_ABI_MAJOR ? &sf_desc : NULL;
}
