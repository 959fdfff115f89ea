/* null_ops.c - no operations table: refused. */
#include "stub_select.h"

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    static const drover_plugin_desc desc = STUB_DESC("null_ops", NULL, NULL);
    return &desc;
}
