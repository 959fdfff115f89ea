// acct_policy.hpp - AccountingStorageEnforce's qos and limits: which QOS a job runs under and
// whether it may, whether it may be submitted (Max/GrpSubmitJobs, MaxWall, a DenyOnLimit QOS),
// and what keeps it from starting now (the pending reason, as Slurm names it). Limits are looked
// up as Slurm orders them: the job's QOS first, then its user association, then each parent
// account up to the root; a Max limit is the first one defined on that path, a Grp limit holds
// at every level that has one unless the QOS has its own. Pure: reads the AssocDb and the usage
// index, changes nothing.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ctld/acct/assoc_db.hpp"
#include "ctld/policy/usage.hpp"

namespace drover::ctld {
struct Job;
}

namespace drover::ctld::policy {

// Slurm's refusal of a job over a submit limit (ESLURM_ACCOUNTING_POLICY) and of a QOS the job may
// not use (ESLURM_INVALID_QOS).
inline constexpr const char *kPolicyRefused =
    "Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)";
inline constexpr const char *kInvalidQos = "Invalid qos specification";

// What a job asks for (pending) or holds (running), over the whole job: the counts both its TRES
// lists and priority's job size and TRES factors are made of.
struct JobSize {
    uint64_t cpus = 0, nodes = 0, mem_mb = 0, gpus = 0;
};
JobSize job_size(const Job &job);
// What a job asks for (pending) or holds (running) in TRES.
JobTres job_tres(const Job &job);

class AcctPolicy {
  public:
    // part_qos names a partition's QOS ("" for none; may be empty itself).
    using PartQos = std::function<std::string(const std::string &partition)>;
    // Made for each check (the job manager's persist and the scheduler's tries): it borrows db and
    // cluster, which must outlive it.
    AcctPolicy(const AssocDb &db, Enforce enforce, std::string_view cluster, PartQos part_qos = {})
        : db_(db), enforce_(enforce), cluster_(cluster), part_qos_(std::move(part_qos)) {}

    bool active() const { return db_.loaded() && (enforce_.qos || enforce_.limits); }

    // Sets job.qos to the QOS the job runs under (as asked, else its association's default,
    // else "normal") and checks that it exists and, with qos enforced, that the association may
    // use it: "" or kInvalidQos.
    std::string choose_qos(Job &job) const;
    // With limits enforced: "" or kPolicyRefused, with *reason the limit's name.
    // A job without a time limit gets the MaxWall in force as its limit.
    std::string check_submit(Job &job, const UsageIndex &use, std::string *reason) const;
    // With limits enforced: nullptr, or why the job cannot start now (now: the time, for the
    // minutes running jobs' limits leave them).
    const char *check_start(const Job &job, const UsageIndex &use, int64_t now) const;
    // Where job counts in the usage index (nothing when the policy is not active).
    Share share_of(const Job &job) const;

  private:
    // The job's association and its parents, nearest first (empty when it has none).
    std::vector<const AssocRec *> chain(const Job &job) const;
    // The QOS whose limits the job obeys, in the order they count: its partition's QOS, then
    // its own (the other way round when its own has OverPartQOS).
    std::vector<const AssocRec *> qos_path(const Job &job) const;
    // Why the job's size breaks a per-job limit (MaxTRES, MaxTRESPerNode, MinTRES; qos_only:
    // the QOS's, with their Grp limits taken as Max ones, as DenyOnLimit does), or nullptr.
    const char *job_size_reason(const Job &job, const std::vector<const AssocRec *> &qos,
                                const std::vector<const AssocRec *> &ch, bool qos_only) const;
    // The associations' Grp limits (GrpJobs, GrpTRES, GrpTRESRunMins) the job would break by
    // starting now; mins: what it asks for times its time limit.
    const char *assoc_grp_reason(const std::vector<const AssocRec *> &qos,
                                 const std::vector<const AssocRec *> &ch, const JobTres &t,
                                 const Tres &mins, const UsageIndex &use, uint64_t now_min) const;

    const AssocDb &db_;
    Enforce enforce_;
    std::string_view cluster_;
    PartQos part_qos_;
};

} // namespace drover::ctld::policy
