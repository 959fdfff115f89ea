/* missing_op.c - a select plugin without job_test, which every select plugin must have. */
#include "stub_select.h"

static const drover_select_ops ops = {
    .struct_size = sizeof(drover_select_ops),
    .node_init = stub_node_init,
    .job_test = NULL,
    .job_begin = stub_job_begin,
    .job_fini = stub_job_fini,
};

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    static const drover_plugin_desc desc = STUB_DESC("missing_op", NULL, &ops);
    return &desc;
}
