// bcast_send.hpp - a file sent to the nodes of a job (or of one of its steps), block by block
// down the fan-out tree, under a broadcast credential the controller signs: sbcast, and srun
// --bcast before it launches the copy.
#pragma once

#include <cstdint>
#include <string>

namespace drover::cli {

struct BcastSend {
    uint32_t job_id = 0;
    uint32_t step_id = 0xfffffffe; // NO_VAL: every node of the job
    std::string source, dest;      // dest: absolute, the same on every node
    bool force = false, preserve = false;
    uint32_t fanout = 0; // 0: TreeWidth
    uint32_t block_size = 8u << 20;
    uint32_t timeout_ms = 0; // per block; 0: MessageTimeout
};

// Sends the file; what fails is said on stderr as prog's error ("REQUEST_FILE_BCAST(node1):
// File exists"). Returns sbcast's exit status: 0 once every node has the whole file, 255 when the
// source cannot be read or the job not used, else the error number a node failed with (17 for an
// existing file), as Slurm's sbcast.
int send_file(const BcastSend &b, const std::string &prog);

} // namespace drover::cli
