/* old_select.c - a select plugin from an SDK before job_cpus_on_node: its table is shorter. It
 * loads, and the missing op reads NULL, even though non-zero bytes follow the table in memory. */
#include "stub_select.h"

typedef struct old_select_ops {
    uint32_t struct_size;
    int (*node_init)(void *, const drover_node_view *, uint32_t, drover_error *);
    int (*job_test)(void *, const drover_job_view *, drover_bitmap_view, int, drover_bitmap *,
                    drover_error *);
    int (*job_begin)(void *, const drover_job_view *, drover_bitmap_view, drover_error *);
    int (*job_fini)(void *, const drover_job_view *, drover_error *);
} old_select_ops;

/* The table, then a pointer where a newer table would have job_cpus_on_node: a loader that read
 * past struct_size would find it there. */
static const struct {
    old_select_ops ops;
    uint32_t (*after_the_table)(void *, uint32_t, uint32_t);
} table = {
    .ops =
        {
            .struct_size = sizeof(old_select_ops),
            .node_init = stub_node_init,
            .job_test = stub_job_test,
            .job_begin = stub_job_begin,
            .job_fini = stub_job_fini,
        },
    .after_the_table = stub_job_cpus_on_node,
};

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    static const drover_plugin_desc desc = STUB_DESC("old", NULL, &table.ops);
    return &desc;
}
