/* drover/auth.h - message authentication plugins (AuthType=auth/<name>).
 *
 * Every message between Drover processes carries a credential that binds who sent it (uid, gid),
 * when, and the SHA-256 of the message body. Commands run by ordinary users cannot read the key,
 * so they ask the local daemon to make their credential over a Unix socket; the daemon learns
 * their uid and gid from the kernel (SO_PEERCRED), never from the request.
 */
#ifndef DROVER_AUTH_H
#define DROVER_AUTH_H

#include <drover/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DROVER_AUTH_CRED_MAX 256 /* bytes a credential may take */

typedef struct drover_auth_ops {
    uint32_t struct_size;
    /* Makes a credential for uid/gid over body_hash into cred (capacity *cred_len bytes); sets
     * *cred_len to the length used. */
    int (*cred_create)(void *state, uint32_t uid, uint32_t gid, const uint8_t body_hash[32],
                       uint8_t *cred, uint32_t *cred_len, drover_error *err);
    /* Checks a credential against body_hash: signature, age and replay. On DROVER_OK sets *uid
     * and *gid; otherwise returns DROVER_EPERM with the reason in err. */
    int (*cred_verify)(void *state, const uint8_t *cred, uint32_t cred_len,
                       const uint8_t body_hash[32], uint32_t *uid, uint32_t *gid,
                       drover_error *err);
} drover_auth_ops;

#ifdef __cplusplus
}
#endif

#endif /* DROVER_AUTH_H */
