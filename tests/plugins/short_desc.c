/* short_desc.c - the descriptor claims to end before init/fini/ops: refused. */
#include "stub_select.h"

static const drover_select_ops ops = STUB_SELECT_OPS;

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    static drover_plugin_desc desc = STUB_DESC("short_desc", NULL, &ops);
    desc.struct_size = offsetof(drover_plugin_desc, init);
    return &desc;
}
