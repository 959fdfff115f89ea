// job_script.hpp - a batch job's submission as the state store keeps it (Table::Scripts, one
// record per job or array, written at submit and removed when the job is forgotten): what the
// launcher sends to the batch host and scontrol write batch_script shows.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "proto/message_generated.h"
#include "state/store.hpp"

namespace drover::ctld {

struct Job;

// The stored submission: the Message, or (a store written before protocol 2) an Envelope around
// it. Null when it does not verify.
const proto::Message *stored_submission(std::span<const uint8_t> rec);

// The JobDesc job was submitted with (an array task's is its array's record), read into rec,
// which holds its bytes; null when the record is missing or does not verify.
const proto::JobDesc *stored_desc(const state::Store &store, const Job &job,
                                  std::optional<std::vector<uint8_t>> &rec);

// The submission as the job stands now: d (its stored JobDesc) with what scontrol update and
// release may have changed since (time limit, name, partition, node count, features, comment,
// nice, begin time, requeue) taken from the job, its dependency dropped and not held. A
// federation sends it as a sibling copy once the job is eligible.
std::vector<uint8_t> current_submission(const proto::JobDesc &d, const Job &job);

} // namespace drover::ctld
