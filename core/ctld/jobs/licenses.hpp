// licenses.hpp - slurm.conf's Licenses= against the jobs' -L: what a job may ask for, what the
// running jobs hold, and whether a pending job's licenses are free now. Kept by the job manager,
// which sets a job's holding whenever it writes the job (so a restart counts them again).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/licenses.hpp"
#include "common/status.hpp"
#include "ctld/policy/usage.hpp"

namespace drover::ctld {

struct Job;

// Slurm's refusal of a -L naming a license slurm.conf does not have, or more than it has.
inline constexpr const char *kInvalidLicenses = "Invalid license specification";

class Licenses {
  public:
    explicit Licenses(std::string_view configured);

    // A job's -L read and checked: ask becomes its canonical text ("a:1,b:2"), or the refusal.
    Status read_ask(std::string &ask) const;
    // What job holds from now on (a running job holds its licenses; others none).
    void set(const Job &job);
    void remove(uint32_t job_id) { held_.remove(job_id); }
    // True when every license job asks for is free now.
    bool free_for(const Job &job) const;

    struct Row {
        std::string name;
        uint32_t total = 0, used = 0;
    };
    // Each configured license, sorted by name, with what running jobs use.
    std::vector<Row> rows() const;

  private:
    std::vector<LicenseCount> total_;
    policy::UsageIndex held_; // one key: the licenses running jobs hold, as TRES license/NAME
};

} // namespace drover::ctld
