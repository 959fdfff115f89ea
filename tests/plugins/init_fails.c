/* init_fails.c - init refuses with a message, which the load error must carry. */
#include <stdio.h>

#include "stub_select.h"

static const drover_select_ops ops = STUB_SELECT_OPS;

static int failing_init(drover_ctx *ctx, const drover_host_api *host, void **state_out,
                        drover_error *err) {
    snprintf(err->text, sizeof err->text, "licence server unreachable");
    return DROVER_EPERM;
}

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    static const drover_plugin_desc desc = STUB_DESC("init_fails", failing_init, &ops);
    return &desc;
}
