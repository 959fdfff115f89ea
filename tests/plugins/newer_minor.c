/* newer_minor.c - built for a newer ABI minor than the core's: refused. */
#include "stub_select.h"

static const drover_select_ops ops = STUB_SELECT_OPS;

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    static drover_plugin_desc desc = STUB_DESC("newer_minor", NULL, &ops);
    desc.abi_minor = DROVER_ABI_MINOR + 1;
    return &desc;
}
