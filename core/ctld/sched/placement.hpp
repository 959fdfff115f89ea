// placement.hpp - where a job could go, asked without allocating anything: the nodes it may use
// (up, responding, not drained, not excluded, features met) and the select plugin's answer to
// whether it could run there. Submission asks it (refusing jobs that could never run, sbatch
// --test-only), and the scheduler narrows its choices through it.
#pragma once

#include <cstdint>
#include <string>

#include "common/bitmap.hpp"
#include "plugin/select_calls.hpp"

namespace drover::ctld {

struct Job;
struct Partition;
class NodeManager;

class Placement {
  public:
    Placement(plugin::SelectCalls select, const NodeManager &nodes)
        : select_(select), nodes_(nodes) {}

    // Takes out of nodes those the job excludes (-x) or whose features fail its constraint.
    void narrow_for(const Job &job, Bitmap &nodes) const;
    // The nodes of part the job may use now.
    Bitmap usable_for(const Job &job, const Partition &part) const;
    // Could job ever run on part's nodes? DROVER_OK or DROVER_ENOSPC.
    int test_job(const Job &job, const Partition &part) const;
    // sbatch --test-only's answer.
    std::string estimate(const Job &job, const Partition &part, uint32_t would_be_id) const;

  private:
    plugin::SelectCalls select_;
    const NodeManager &nodes_;
};

} // namespace drover::ctld
