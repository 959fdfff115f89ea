/* drover/switch.h - interconnect plugins (SwitchType=switch/<name>).
 *
 * Called on each node daemon around a job: job_init before the job's processes start, and
 * job_fini after they have all ended, to set up and tear down interconnect state (windows,
 * VNIs, keys). env_out lets the plugin add variables to the job's environment.
 */
#ifndef DROVER_SWITCH_H
#define DROVER_SWITCH_H

#include <drover/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Adds NAME=VALUE to the job's environment; arg is the core's. */
typedef void (*drover_env_add_fn)(void *arg, drover_str name, drover_str value);

typedef struct drover_switch_ops {
    uint32_t struct_size;
    int (*job_init)(void *state, uint32_t job_id, drover_str node_list, drover_env_add_fn env_add,
                    void *env_arg, drover_error *err);
    int (*job_fini)(void *state, uint32_t job_id, drover_error *err);
} drover_switch_ops;

#ifdef __cplusplus
}
#endif

#endif /* DROVER_SWITCH_H */
