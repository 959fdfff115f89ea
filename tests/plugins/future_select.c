/* future_select.c - a select plugin from a later SDK whose table has one more op at its end
 * (job_expand, after everything this core knows), but which declares the core's own minor: it
 * loads and the extra op is ignored. */
#include "stub_select.h"

/* drover_select_ops as a later SDK might define it: the same members, then one appended. */
typedef struct future_select_ops {
    uint32_t struct_size;
    int (*node_init)(void *, const drover_node_view *, uint32_t, drover_error *);
    int (*job_test)(void *, const drover_job_view *, drover_bitmap_view, int, drover_bitmap *,
                    drover_error *);
    int (*job_begin)(void *, const drover_job_view *, drover_bitmap_view, drover_error *);
    int (*job_fini)(void *, const drover_job_view *, drover_error *);
    uint32_t (*job_cpus_on_node)(void *, uint32_t, uint32_t);
    int (*job_alloc_detail)(void *, uint32_t, uint32_t, drover_node_alloc *);
    int (*job_suspend)(void *, const drover_job_view *, drover_error *);
    int (*job_resume)(void *, const drover_job_view *, drover_error *);
    int (*job_expand)(void *, uint32_t job_id, drover_error *);
} future_select_ops;

static int future_job_expand(void *state, uint32_t job_id, drover_error *err) {
    return DROVER_OK;
}

static const future_select_ops ops = {
    .struct_size = sizeof(future_select_ops),
    .node_init = stub_node_init,
    .job_test = stub_job_test,
    .job_begin = stub_job_begin,
    .job_fini = stub_job_fini,
    .job_cpus_on_node = stub_job_cpus_on_node,
    .job_expand = future_job_expand,
};

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    static const drover_plugin_desc desc = STUB_DESC("future", NULL, &ops);
    return &desc;
}
