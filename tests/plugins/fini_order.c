/* fini_order.c - records init (with what the host API answered) and fini in a log file, so the
 * tests can check the host table and that fini runs in reverse load order. Built twice: as
 * select/order (order_select.so) and, with ORDER_SCHED, as sched/order (order_sched.so).
 * The log file is named by the slurm.conf key TestPluginLog. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drover/sched.h>

#include "stub_select.h"

#ifdef ORDER_SCHED
#define ORDER_TYPE "sched"
static int order_schedule(void *state, const drover_sched_host *host, drover_sched_pass *pass,
                          drover_error *err) {
    return DROVER_OK;
}
static const drover_sched_ops ops = {
    .struct_size = sizeof(drover_sched_ops),
    .schedule = order_schedule,
};
#else
#define ORDER_TYPE "select"
static const drover_select_ops ops = STUB_SELECT_OPS;
#endif

struct order_state {
    char path[512];
};

static void append(const struct order_state *s, const char *line) {
    FILE *f = fopen(s->path, "a");
    if (f) {
        fputs(line, f);
        fclose(f);
    }
}

static int order_init(drover_ctx *ctx, const drover_host_api *host, void **state_out,
                      drover_error *err) {
    drover_str key = {"testpluginlog", 13}, value = {NULL, 0};
    if (host->conf_get(ctx, key, &value) != DROVER_OK || value.len >= 512) {
        snprintf(err->text, sizeof err->text, "TestPluginLog is not set");
        return DROVER_EINVAL;
    }
    struct order_state *s = calloc(1, sizeof *s);
    if (!s) return DROVER_EIO;
    memcpy(s->path, value.ptr, value.len);
    char line[128];
    snprintf(line, sizeof line, "init %s/order role=%s\n", ORDER_TYPE, host->role(ctx));
    append(s, line);
    drover_str msg = {"hello from the test plugin", 26};
    host->log(ctx, DROVER_LOG_INFO, msg);
    *state_out = s;
    return DROVER_OK;
}

static void order_fini(void *state) {
    append(state, "fini " ORDER_TYPE "/order\n");
    free(state);
}

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    static drover_plugin_desc desc = STUB_DESC("order", order_init, &ops);
    desc.type = ORDER_TYPE;
    desc.fini = order_fini;
    return &desc;
}
