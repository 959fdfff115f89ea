// privacy.hpp - PrivateData (slurm.conf) in the controller: what one user may see of what belongs
// to others. Every route that sends jobs, steps, nodes, partitions, accounting records, node
// events or sacctmgr records asks a Viewer made for the request's user, so the rules live here
// only. As in Slurm, root, SlurmUser and users with AdminLevel Operator or Administrator see
// everything. Slurm also shows account coordinators their accounts' jobs; Drover has no
// coordinators, so other users see their own only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <drover/plugin.h>

#include "common/status.hpp"
#include "ctld/acct/acct_admin.hpp"
#include "ctld/context.hpp"

namespace drover::ctld {

struct Job;

inline constexpr const char *kAccessDenied = "Access/permission denied";
// The refusal of what the caller has no right to (DROVER_EPERM).
inline Status access_denied() {
    return {DROVER_EPERM, kAccessDenied};
}

// The user's sacctmgr admin level; root and SlurmUser count as Administrator.
uint32_t admin_level(const Ctx &ctx, uint32_t uid);

// The user name of uid (its number when it has none).
std::string user_name_of(uint32_t uid);

class Viewer {
  public:
    Viewer(const Ctx &ctx, uint32_t uid) : ctx_(ctx), uid_(uid) {}

    // PrivateData=jobs: the job and its steps (squeue, scontrol show job/step, sstat, scancel's
    // filters). A job the viewer may not see is answered as if it did not exist, as Slurm does.
    bool sees_job(const Job &job) const;
    // PrivateData=jobs or usage: the one user whose accounting records (sacct) the viewer may
    // see, or DROVER_NO_VAL when it may see everyone's.
    uint32_t acct_records_user() const;
    // PrivateData=nodes, partitions, events: all or nothing, as in Slurm; false is refused with
    // kAccessDenied.
    bool sees_nodes() const { return !ctx_.conf.private_data.nodes || privileged(); }
    bool sees_partitions() const { return !ctx_.conf.private_data.partitions || privileged(); }
    bool sees_events() const { return !ctx_.conf.private_data.events || privileged(); }
    // PrivateData=reservations: whether every reservation shows (scontrol show reservation,
    // sinfo -T); else only those whose Users= admit the viewer.
    bool sees_reservations() const { return !ctx_.conf.private_data.reservations || privileged(); }
    // PrivateData=usage: whether other users' usage shows (sshare); else only the viewer's own.
    bool sees_usage() const { return !ctx_.conf.private_data.usage || privileged(); }
    // sacctmgr show ENTITY (users: user and association; accounts: account): drops the rows the
    // viewer may not see. Returns "" or, where it may see none of that kind, Slurm's refusal.
    std::string trim_admin_rows(const std::string &entity, std::vector<AdminFields> &rows) const;

  private:
    bool privileged() const; // Operator or above; looked up once, when first needed
    const Ctx &ctx_;
    uint32_t uid_;
    mutable std::optional<bool> privileged_;
};

} // namespace drover::ctld
