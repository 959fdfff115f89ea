/* drover/plugin.h - the Drover plugin ABI: C only, stable within DROVER_ABI_MAJOR.
 *
 * A plugin is a shared object that exports exactly one symbol, drover_plugin_entry(), which
 * returns a static descriptor: identity (type/name, as slurm.conf names it:
 * SelectType=select/linear is type "select", name "linear"), the ABI it was built against,
 * init/fini, and a pointer to the typed operations table for its type (drover/select.h,
 * drover/sched.h, ...).
 *
 * Rules that keep old plugins loading in new cores:
 *   - every table starts with uint32_t struct_size and grows only at its end;
 *   - a reader reads a table only up to min(its size, the writer's size); a missing trailing
 *     function pointer reads as NULL, which means "not provided";
 *   - DROVER_ABI_MAJOR changes only on a breaking change, and the core refuses any other major;
 *     DROVER_ABI_MINOR grows with every appended field, and the core refuses a plugin whose minor
 *     is newer than its own.
 *
 * Only C types cross the boundary: fixed-width integers, borrowed {ptr,len} strings, opaque
 * handles and flat views. No C++ exception may leave a plugin function (see drover/plugin.hpp).
 */
#ifndef DROVER_PLUGIN_H
#define DROVER_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DROVER_ABI_MAJOR 1  /* changed only by a breaking change: the core refuses others */
#define DROVER_ABI_MINOR 12 /* +1 whenever a field or function is appended to any table   */

#define DROVER_EXPORT __attribute__((visibility("default")))

/* True if table *p (which starts with uint32_t struct_size) is long enough to hold member f. */
#define DROVER_HAS(T, p, f) ((p)->struct_size >= offsetof(T, f) + sizeof(((T *)0)->f))

/* Return codes shared by every table. */
#define DROVER_OK 0
#define DROVER_EINVAL (-22) /* bad argument */
#define DROVER_EBUSY (-16)  /* resources exist but are busy now: try later */
#define DROVER_ENOSPC (-28) /* can never be satisfied with this configuration */
#define DROVER_EPERM (-1)   /* refused: not allowed */
#define DROVER_ENOENT (-2)  /* no such object */
#define DROVER_EIO (-5)     /* I/O or internal failure */

/* Log levels for drover_host_api.log. */
#define DROVER_LOG_DEBUG 1
#define DROVER_LOG_INFO 2
#define DROVER_LOG_WARN 3
#define DROVER_LOG_ERROR 4

/* A borrowed string: not NUL-terminated unless said. OWNERSHIP: the side that passes it keeps
 * it; the receiver copies what it wants to keep beyond the call. */
typedef struct drover_str {
    const char *ptr;
    size_t len;
} drover_str;

/* A caller-owned buffer for one line of error text; the callee writes a NUL-terminated message. */
typedef struct drover_error {
    char text[256];
} drover_error;

/* A read-only view of a bitmap of node indexes (bit i = node i of the host's node table).
 * OWNERSHIP: borrowed for the duration of the call. */
typedef struct drover_bitmap_view {
    const uint64_t *words;
    uint32_t nbits;
} drover_bitmap_view;

/* A writable bitmap of node indexes, sized by the core. OWNERSHIP: the core's; the plugin only
 * sets and clears bits during the call. */
typedef struct drover_bitmap {
    uint64_t *words;
    uint32_t nbits;
} drover_bitmap;

/* Opaque per-instance context owned by the core; passed back on every host call. */
typedef struct drover_ctx drover_ctx;

/* The core's services for plugins. OWNERSHIP: the core's; valid from init() until fini()
 * returns. Appended members must be guarded with DROVER_HAS(drover_host_api, host, member). */
typedef struct drover_host_api {
    uint32_t struct_size;
    uint16_t abi_major, abi_minor;
    /* Writes one line to the daemon's log, tagged with the plugin's type/name. */
    void (*log)(drover_ctx *ctx, int level, drover_str msg);
    /* Looks a slurm.conf key up (case-insensitive). Returns 0 and sets *value_out (borrowed,
     * valid until fini) or DROVER_ENOENT when the key is not set. */
    int (*conf_get)(drover_ctx *ctx, drover_str key, drover_str *value_out);
    /* The daemon's role: "ctld", "noded" or "cli". Borrowed, NUL-terminated. */
    const char *(*role)(drover_ctx *ctx);
} drover_host_api;

/* The descriptor a plugin returns from drover_plugin_entry. OWNERSHIP: static storage inside
 * the shared object; the core reads it, never writes it. */
typedef struct drover_plugin_desc {
    uint32_t struct_size;          /* sizeof(drover_plugin_desc) as the plugin compiled it */
    uint16_t abi_major, abi_minor; /* DROVER_ABI_* the plugin was built against */
    const char *type;    /* "select", "sched", "auth", "accounting", "switch", "proctrack",
                            "priority", "job_submit" */
    const char *name;    /* "linear" for SelectType=select/linear */
    const char *version; /* the vendor's own version string */
    /* Creates one instance. Returns DROVER_OK and sets *state_out (plugin-owned, may be NULL),
     * or a negative code with a message in *err, in which case the daemon does not start. */
    int (*init)(drover_ctx *ctx, const drover_host_api *host, void **state_out, drover_error *err);
    /* Destroys the instance made by init. May be NULL. */
    void (*fini)(void *state);
    /* The operations table for this type; begins with uint32_t struct_size. Never NULL. */
    const void *ops;
} drover_plugin_desc;

/* The only exported symbol. host_major/host_minor are the core's ABI. Returns NULL if the
 * plugin cannot run on that ABI. */
DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t host_major,
                                                            uint16_t host_minor);

typedef const drover_plugin_desc *(*drover_plugin_entry_fn)(uint16_t, uint16_t);

#ifdef __cplusplus
}
#endif

#endif /* DROVER_PLUGIN_H */
