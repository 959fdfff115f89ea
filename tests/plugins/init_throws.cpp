// init_throws.cpp - a C++ plugin whose init lets an exception out; the core's barrier catches it.
#include <stdexcept>

extern "C" {
#include "stub_select.h"
}

namespace {

const drover_select_ops ops = STUB_SELECT_OPS;

int throwing_init(drover_ctx *, const drover_host_api *, void **, drover_error *) {
    throw std::runtime_error("init exploded");
}

} // namespace

extern "C" DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t, uint16_t) {
    static const drover_plugin_desc desc = STUB_DESC("init_throws", throwing_init, &ops);
    return &desc;
}
