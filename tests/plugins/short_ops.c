/* short_ops.c - an operations table whose struct_size cannot even hold itself: refused. */
#include "stub_select.h"

static const uint32_t ops_size = 2;

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    static const drover_plugin_desc desc = STUB_DESC("short_ops", NULL, &ops_size);
    return &desc;
}
