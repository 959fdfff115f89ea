/* defaults.c - job_submit/defaults: an out-of-tree Drover job_submit plugin in plain C.
 *
 * Gives a job without a time limit the limit slurm.conf's DefaultJobMinutes names (default 10)
 * and refuses a job without an account, with a message for the submitter. It shows the whole
 * job_submit ABI (drover/job_submit.h): reading and setting a job's description by Slurm's
 * job_desc field names, user messages, and a refusal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drover/job_submit.h>
#include <drover/plugin.h>

#define NO_VAL 0xfffffffeLL

struct defaults {
    long minutes;
};

static int df_job_submit(void *state, const drover_job_submit_host *host, drover_job_desc *desc,
                         uint32_t submit_uid, drover_error *err) {
    const struct defaults *s = state;
    uint32_t kind = 0;
    int64_t number = 0;
    drover_str text = {0};
    (void)submit_uid;
    if (host->get(desc, "account", &kind, &number, &text) != DROVER_OK ||
        kind == DROVER_FIELD_NIL) {
        host->user_msg(desc, "job_submit/defaults: every job needs an account (-A)");
        return DROVER_EINVAL; /* err left empty: the submitter sees the user message */
    }
    if (host->get(desc, "time_limit", &kind, &number, &text) == DROVER_OK && number == NO_VAL) {
        if (host->set_number(desc, "time_limit", s->minutes) != DROVER_OK) {
            snprintf(err->text, sizeof err->text, "job_submit/defaults: cannot set time_limit");
            return DROVER_EIO;
        }
        host->user_msg(desc, "job_submit/defaults: time limit set to the site's default");
    }
    return DROVER_OK;
}

static int df_init(drover_ctx *ctx, const drover_host_api *host, void **state_out,
                   drover_error *err) {
    struct defaults *s = calloc(1, sizeof *s);
    if (!s) return DROVER_EIO;
    s->minutes = 10;
    drover_str key = {"DefaultJobMinutes", strlen("DefaultJobMinutes")}, value;
    if (host->conf_get(ctx, key, &value) == DROVER_OK) {
        char buf[32] = {0};
        char *end = NULL;
        memcpy(buf, value.ptr, value.len < sizeof buf - 1 ? value.len : sizeof buf - 1);
        s->minutes = strtol(buf, &end, 10);
        if (end == buf || *end != '\0' || s->minutes <= 0) {
            strcpy(err->text, "DefaultJobMinutes: expected a number of minutes above 0");
            free(s);
            return DROVER_EINVAL;
        }
    }
    *state_out = s;
    return DROVER_OK;
}

static void df_fini(void *state) {
    free(state);
}

static const drover_job_submit_ops df_ops = {
    .struct_size = sizeof(drover_job_submit_ops),
    .job_submit = df_job_submit,
    .job_modify = NULL, /* updates are accepted as they are */
};

static const drover_plugin_desc df_desc = {
    .struct_size = sizeof(drover_plugin_desc),
    .abi_major = DROVER_ABI_MAJOR,
    .abi_minor = DROVER_ABI_MINOR,
    .type = "job_submit",
    .name = "defaults",
    .version = "1.0.0",
    .init = df_init,
    .fini = df_fini,
    .ops = &df_ops,
};

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t major, uint16_t minor) {
    (void)minor;
    return major == DROVER_ABI_MAJOR ? &df_desc : NULL;
}
