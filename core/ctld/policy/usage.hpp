// usage.hpp - what the live jobs hold against limits: per association (with its parents), per
// QOS, per QOS and user, per QOS and account: jobs submitted (pending or running; an array's
// waiting tasks each count), jobs running and the TRES they hold. Each job's share is set
// whenever the job manager writes the job, so the counts follow every change of state.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "ctld/policy/tres.hpp"

namespace drover::ctld::policy {

struct Use {
    uint64_t submitted = 0, running = 0;
    Tres tres; // held by running jobs
    // Of running jobs with a time limit: the sum of TRES x the minute the limit ends, and of their
    // TRES, so that the TRES-minutes left to them at minute m is run_end - m x run_tres.
    Tres run_end, run_tres;
};

// The TRES-minutes the running jobs of u may still use at minute now_min (epoch minutes), by
// their time limits (GrpTRESRunMins).
Tres run_minutes(const Use &u, uint64_t now_min);

// Where a job counts: the keys (usage_key_*) and what it adds to each.
struct Share {
    std::vector<std::string> keys;
    uint64_t submitted = 0; // 0 for a finished job
    bool running = false;
    Tres tres;
    uint64_t end_min = 0; // a running job's time limit's end, in epoch minutes (0: none)
};

std::string usage_key_assoc(const std::string &assoc_key);
std::string usage_key_qos(const std::string &qos);
std::string usage_key_qos_user(const std::string &qos, uint32_t uid);
std::string usage_key_qos_account(const std::string &qos, const std::string &account);

class UsageIndex {
  public:
    // Replaces what job_id counted for (an empty share removes it).
    void set(uint32_t job_id, Share share);
    void remove(uint32_t job_id) { set(job_id, {}); }
    void clear();
    // The use under key (all zero when nothing counts there).
    const Use &use(const std::string &key) const;

  private:
    void add(const Share &s, int sign);
    std::unordered_map<std::string, Use> by_key_;
    std::unordered_map<uint32_t, Share> by_job_;
};

} // namespace drover::ctld::policy
