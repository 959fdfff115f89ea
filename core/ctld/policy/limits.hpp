// limits.hpp - an association's or a QOS's settings read for enforcement (from Settings, once per
// change of the record), and what a job asks for in TRES terms.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "ctld/policy/settings.hpp"
#include "ctld/policy/tres.hpp"

namespace drover::ctld::policy {

// AccountingStorageEnforce as slurm.conf writes it ("associations,limits,qos,safe", any case):
// each of the four implies associations; safe implies limits.
struct Enforce {
    bool associations = false, qos = false, limits = false;
    static Enforce parse(std::string_view text);
};

inline constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();

struct Limits {
    // Counts and walls (minutes); kNoLimit when unset.
    uint64_t grp_jobs = kNoLimit, grp_submit = kNoLimit, grp_wall = kNoLimit;
    uint64_t max_jobs = kNoLimit, max_submit = kNoLimit, max_wall = kNoLimit; // per association
    uint64_t max_jobs_pu = kNoLimit, max_submit_pu = kNoLimit;                // QOS, per user
    uint64_t max_jobs_pa = kNoLimit, max_submit_pa = kNoLimit;                // QOS, per account
    Tres grp_tres, max_tres, max_tres_pn, max_tres_pu, max_tres_pa, min_tres;
    Tres max_tres_mins;     // per job: TRES x time limit, in TRES-minutes
    Tres grp_tres_run_mins; // running jobs' TRES x the time their limits leave them
    // An association's QOS list and default QOS ("" / empty: inherited from its parent).
    std::vector<std::string> qos;
    bool qos_set = false;
    std::string default_qos;
    // A QOS's priority and the flags enforcement reads.
    uint64_t priority = 0;
    double usage_factor = 1; // a QOS's UsageFactor: what its jobs' usage counts for fair-share
    // An association's FairShare= (1 unless set; kSharesParent for "parent").
    static constexpr uint32_t kSharesParent = 0xffffffffu;
    uint32_t shares = 1;
    // A QOS's preemption: the QOS it may preempt (Preempt=), how its own jobs are preempted
    // (PreemptMode, lower case; "" or "cluster": slurm.conf's), GraceTime and PreemptExemptTime
    // in seconds (kNoLimit: unset).
    std::vector<std::string> preempt;
    std::string preempt_mode;
    uint64_t grace_s = 0, preempt_exempt_s = kNoLimit;
    bool deny_on_limit = false, over_part_qos = false;

    static Limits from(const Settings &s);
};

// A job's request (pending) or holding (running) in TRES: cpu, mem (MB), node, billing (= cpu),
// gres/gpu; per_node: the most one node holds.
struct JobTres {
    Tres total, per_node;
};

} // namespace drover::ctld::policy
