// step_recovery.hpp - a step's record in the node's spool, written when it launches, and the
// taking back of the steps a previous droverd left there (spool.hpp has the layout): a droverd
// killed and restarted watches their shepherds again and reports their ends.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "noded/reaper.hpp"
#include "noded/shepherd.hpp"
#include "noded/spool.hpp"

namespace boost::asio {
class io_context;
}
namespace drover {
struct Config;
}

namespace drover::noded {

// What the spool keeps of a step while it runs (step<J>.<S>/step).
struct SpooledStep {
    uint32_t job_id = 0, step_id = 0, uid = 0, gid = 0;
    std::string user;
    std::vector<uint32_t> tasks; // global task ids run here
    uint64_t cont = 0;           // its proctrack container
    ProcessId shepherd;
};

// <SlurmdSpoolDir>/<node>/step<J>.<S>
std::string step_spool_dir(const Config &conf, const std::string &node, uint32_t job_id,
                           uint32_t step_id);

// Creates dir and, in it, the records file the step's shepherd appends to; its descriptor (to
// append, close-on-exec), or -1 with errno set.
int create_step_spool(const std::string &dir);

// Writes dir/step; false (errno says why) when it cannot.
bool save_spooled_step(const std::string &dir, const SpooledStep &step);

// The records the step's shepherd appended to dir/records beyond the first *seen; *seen moves
// past them.
std::vector<ShepherdRecord> new_records(const std::string &dir, std::size_t *seen);

// What the step runner does with the steps found again.
struct StepAdoption {
    // Every step the spool holds, once: it was launched here and must never be launched again.
    std::function<void(uint32_t job_id, uint32_t step_id)> found;
    // A step whose end is yet to be reported, taken on as running (dir is its spool directory);
    // returns what runs on the loop once its shepherd has gone.
    std::function<std::function<void()>(const SpooledStep &step, const std::string &dir)> adopt;
};

// Takes back the steps a previous droverd left in node's spool: a launch it never let go of
// (nothing of it ran) is removed, an end the controller has not acknowledged is sent again with
// tell, and every other step is adopted; its shepherd, still running, is watched again through
// reaper, or, gone meanwhile, ends the step on the loop.
void recover_steps(boost::asio::io_context &io, const Config &conf, const std::string &node,
                   const Tell &tell, Reaper &reaper, const StepAdoption &adoption);

} // namespace drover::noded
