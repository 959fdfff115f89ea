// load_records.hpp - the record lists the commands load from the controller: jobs, nodes,
// partitions and reservations. A refusal prints Slurm's "slurm_load_..." line and gives nullptr;
// each answer points into the reply passed in, which must outlive it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "net/client.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

// The jobs with these ids, all when ids is empty. Refused: "slurm_load_jobs error: <message>".
// fed_track: a federated job's revoked copies too (squeue --sibling).
const proto::JobInfoResponse *load_jobs(net::Reply &reply, const std::vector<uint32_t> &ids,
                                        bool fed_track = false);

// The nodes with these names, all when names is empty. Refused: "<error_prefix><message>".
const proto::NodeInfoResponse *load_nodes(net::Reply &reply, const std::vector<std::string> &names,
                                          std::string error_prefix);

// All partitions. Refused: "<error_prefix><message>".
const proto::PartitionInfoResponse *load_partitions(net::Reply &reply, std::string error_prefix);

// The reservation named, all when name is empty. Refused: "<error_prefix><message>".
const proto::ReservationInfoResponse *load_reservations(net::Reply &reply, const std::string &name,
                                                        std::string error_prefix);

// The records of a reply's list, as pointers (none when the list is absent).
template <class Record>
std::vector<const Record *>
records_of(const flatbuffers::Vector<flatbuffers::Offset<Record>> *list) {
    std::vector<const Record *> out;
    if (list)
        for (const auto *r : *list) out.push_back(r);
    return out;
}

} // namespace drover::cli
