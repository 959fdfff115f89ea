// pmix_job.hpp - what drover-pmix registers with its PMIx server for a step: the job-level
// information and each rank's, as Open MPI reads them in MPI_Init.
#pragma once

#include <pmix.h>
#include <pmix_server.h>

#include <cstdint>
#include <string>
#include <vector>

namespace drover::noded::pmix {

struct StepLayout {
    std::string nspace;                       // "drover.12.0"
    uint32_t node_index = 0;                  // this node's place in nodes
    std::vector<std::string> nodes;           // the step's nodes, in step order
    std::vector<std::vector<uint32_t>> ranks; // each node's ranks, node by node
    std::string tmpdir;                       // the step's directory here (the user's)

    uint32_t size() const;
    const std::vector<uint32_t> &local() const { return ranks[node_index]; }
};

// Reads "NSPACE NODE_INDEX NODES RANKS TMPDIR" (NODES "n1,n2", RANKS "0,1;2,3"); throws
// std::runtime_error saying what is wrong.
StepLayout parse_layout(int argc, char **argv);

// The information PMIx_server_register_nspace takes for the step (owned by the vector: the
// library copies what it keeps).
std::vector<pmix_info_t> job_info(const StepLayout &step);

} // namespace drover::noded::pmix
