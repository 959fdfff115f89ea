/* drover/job_submit.h - job submission plugins (JobSubmitPlugins=lua,<name>,...), ABI 1.10.
 *
 * The controller calls each loaded job_submit plugin, in the order JobSubmitPlugins lists them,
 * with every new job's description before it checks anything else (partition, account, limits),
 * and with the changes of every scontrol update of a job. A plugin reads and changes the
 * description's fields by Slurm's names (job_desc.partition, job_desc.time_limit, ...), may
 * leave a message for the submitter, and accepts the job (DROVER_OK) or refuses it (any other
 * code: the submission fails with the plugin's message). Calls run on the controller's loop, one
 * at a time: keep them quick.
 */
#ifndef DROVER_JOB_SUBMIT_H
#define DROVER_JOB_SUBMIT_H

#include <drover/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One job description being submitted or changed. Opaque; valid only during the call. */
typedef struct drover_job_desc drover_job_desc;

/* What a field holds: nothing (Lua's nil), a number or a string. */
enum drover_job_field_kind {
    DROVER_FIELD_NIL = 0,
    DROVER_FIELD_NUMBER = 1,
    DROVER_FIELD_STRING = 2,
};

/* The core's services during one call. OWNERSHIP: the core's; valid only during the call. */
typedef struct drover_job_submit_host {
    uint32_t struct_size;
    /* The number of fields a description has and the name of field i (Slurm's job_desc names:
     * "partition", "time_limit", "account", ...), for a plugin that lists them. */
    uint32_t (*field_count)(void);
    const char *(*field_name)(uint32_t i);
    /* Reads field name: its kind, and its value in *number or *text (borrowed until the next
     * call on desc). DROVER_ENOENT for a name the description has not. */
    int (*get)(drover_job_desc *desc, const char *name, uint32_t *kind, int64_t *number,
               drover_str *text);
    /* Sets field name to number (a number field) or text (a string field; NULL: unset).
     * DROVER_ENOENT for an unknown name, DROVER_EPERM for a field that may not be changed
     * (user_id, group_id), DROVER_EINVAL for a value of the wrong kind. */
    int (*set_number)(drover_job_desc *desc, const char *name, int64_t number);
    int (*set_text)(drover_job_desc *desc, const char *name, const char *text);
    /* Adds a line to the message the submitter is shown (Slurm's slurm.user_msg). */
    void (*user_msg)(drover_job_desc *desc, const char *text);
} drover_job_submit_host;

typedef struct drover_job_submit_ops {
    uint32_t struct_size;
    /* A new job: desc may be changed. submit_uid is who submits. DROVER_OK accepts; another
     * code refuses, with err's message (else the user message, else "Unspecified error"). */
    int (*job_submit)(void *state, const drover_job_submit_host *host, drover_job_desc *desc,
                      uint32_t submit_uid, drover_error *err);
    /* An update of pending or running job job_id: desc holds the fields being changed (others
     * nil) and may be changed further. May be NULL: updates are accepted. */
    int (*job_modify)(void *state, const drover_job_submit_host *host, drover_job_desc *desc,
                      uint32_t job_id, uint32_t submit_uid, drover_error *err);
} drover_job_submit_ops;

#ifdef __cplusplus
}
#endif

#endif /* DROVER_JOB_SUBMIT_H */
