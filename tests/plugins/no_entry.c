/* no_entry.c - a shared object without drover_plugin_entry: refused as "not a Drover plugin". */
#include <drover/plugin.h>

DROVER_EXPORT int drover_plugin_entry_misspelt(void) {
    return 0;
}
