/* unresolved.c - needs a symbol nothing provides: the dynamic linker refuses it at load. */
#include "stub_select.h"

extern int drover_test_no_such_function(void);

static int needy_init(drover_ctx *ctx, const drover_host_api *host, void **state_out,
                      drover_error *err) {
    return drover_test_no_such_function();
}

static const drover_select_ops ops = STUB_SELECT_OPS;

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    static const drover_plugin_desc desc = STUB_DESC("unresolved", needy_init, &ops);
    return &desc;
}
