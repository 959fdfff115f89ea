// pmi_server.hpp - the PMI-1 and PMI-2 server of one step on one node, as a protocol engine:
// bytes from a task's channel in, replies out, and three things asked of its host (send a reply,
// exchange this node's part of a fence, abort the step). It owns no socket and never blocks: a
// fence or a node attribute still to come is answered later, when fence_done() or another task's
// put arrives. droverd's step (noded/step_pmi.cpp) carries it; the unit tests and the fuzz target
// drive it directly.
//
// Every task of the step on this node has a channel, named by its global rank. A fence
// (PMI-1 barrier_in, PMI-2 kvs-fence) completes once every task here has entered it and the
// host has exchanged this node's new keys with every other node's; the keys are then visible to
// every task of the step.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace drover::pmi {

// What the step is, as its tasks learn it.
struct StepInfo {
    std::string kvsname;         // the step's KVS and PMI-2 job id ("12.0")
    uint32_t size = 0;           // ranks in the step
    std::vector<uint32_t> local; // the ranks on this node
    std::string process_mapping; // PMI_process_mapping (process_mapping())
    uint32_t appnum = 0;
};

struct Host {
    // A reply for rank's channel.
    std::function<void(uint32_t rank, std::string bytes)> send;
    // Every local task entered the fence: exchange blob (this node's keys since the last fence,
    // encode_kvs()) with the step's other nodes and call fence_done() with all nodes' blobs.
    std::function<void(std::string blob)> fence;
    // The step must end: rank asked for it (PMI abort), or its channel closed before it finalized.
    std::function<void(uint32_t rank, int code, std::string why)> abort;
};

class Server {
  public:
    Server(StepInfo info, Host host);
    ~Server();

    // Bytes read from rank's channel. False when the channel must be closed: a request that
    // cannot be read (the task has been answered with an error when it could be).
    bool feed(uint32_t rank, std::string_view bytes);
    // The fence's exchange is over: all, every node's blob one after another. False (and the
    // waiting tasks answered with an error) when all cannot be decoded.
    bool fence_done(std::string_view all);
    // rank's channel closed: an abort unless the task had finalized or never spoke PMI.
    void closed(uint32_t rank);

    // How many fences have completed (for tests and logs).
    uint64_t fences() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Keys as a fence exchanges them: each a 4-byte length, the key, a 4-byte length, the value.
std::string encode_kvs(const std::map<std::string, std::string> &kvs);
// Adds the keys of blob (several encode_kvs() one after another) to into; false when malformed.
bool decode_kvs(std::string_view blob, std::map<std::string, std::string> &into);

// PMI_process_mapping for a step whose rank r runs on node node_of[r] (node indexes): MPICH's
// "(vector,(first_node,node_count,ranks_per_node),...)" with one block per run of consecutive
// ranks on consecutive nodes, each node holding the same number.
std::string process_mapping(const std::vector<uint32_t> &node_of);

} // namespace drover::pmi
