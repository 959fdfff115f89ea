// scontrol_fed.hpp - scontrol show federation.
#pragma once

namespace drover::cli {

// Prints "Federation:", "Self:" and one "Sibling:" line per other member, as Slurm's scontrol
// does; nothing when this cluster is in no federation. Throws as call_ctld does.
int show_federation();

} // namespace drover::cli
