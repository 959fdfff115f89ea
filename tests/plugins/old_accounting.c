/* old_accounting.c - an accounting plugin built against SDK 1.3: its table ends before node_event
 * and its descriptor says ABI 1.3. It loads in a 1.4 core with node_event and node_event_query
 * reading NULL (the core then keeps no node events), even though non-zero bytes follow its table.
 */
#include <stddef.h>

#include <drover/accounting.h>

static int old_job_event(void *state, int event, const drover_acct_job *job, drover_error *err) {
    (void)state, (void)event, (void)job, (void)err;
    return DROVER_OK;
}

/* What drover_acct_ops was in ABI 1.3. */
typedef struct acct_ops_1_3 {
    uint32_t struct_size;
    void *job_event, *job_query, *step_event, *job_step_query, *assoc_update, *assoc_list;
} acct_ops_1_3;

static const struct {
    acct_ops_1_3 ops;
    int (*after_the_table)(void *, int, const drover_acct_job *, drover_error *);
} table = {
    .ops = {.struct_size = sizeof(acct_ops_1_3), .job_event = (void *)old_job_event},
    .after_the_table = old_job_event,
};

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    (void)host_major, (void)host_minor;
    static const drover_plugin_desc desc = {
        .struct_size = sizeof(drover_plugin_desc),
        .abi_major = 1,
        .abi_minor = 3,
        .type = "accounting",
        .name = "old",
        .version = "test",
        .init = NULL,
        .fini = NULL,
        .ops = &table.ops,
    };
    return &desc;
}
