/* null_entry.c - drover_plugin_entry answers NULL: the plugin refuses to run on this host. */
#include <drover/plugin.h>

DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor) {
    return NULL;
}
