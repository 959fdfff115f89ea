/* wrong_major.c - built for the next ABI major: refused. */
#include "stub_select.h"

static const drover_select_ops ops = STUB_SELECT_OPS;

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    static drover_plugin_desc desc = STUB_DESC("wrong_major", NULL, &ops);
    desc.abi_major = DROVER_ABI_MAJOR + 1;
    return &desc;
}
