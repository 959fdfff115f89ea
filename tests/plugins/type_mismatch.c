/* type_mismatch.c - says it is a sched plugin; the tests load it as select/type_mismatch. */
#include "stub_select.h"

static const drover_select_ops ops = STUB_SELECT_OPS;

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    static drover_plugin_desc desc = STUB_DESC("type_mismatch", NULL, &ops);
    desc.type = "sched";
    return &desc;
}
