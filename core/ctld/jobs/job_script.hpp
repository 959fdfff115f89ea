// job_script.hpp - a batch job's submission as the state store keeps it (Table::Scripts, one
// record per job or array, written at submit and removed when the job is forgotten): what the
// launcher sends to the batch host and scontrol write batch_script shows.
#pragma once

#include <cstdint>
#include <span>

#include "proto/message_generated.h"

namespace drover::ctld {

// The stored submission: the Message, or (a store written before protocol 2) an Envelope around
// it. Null when it does not verify.
const proto::Message *stored_submission(std::span<const uint8_t> rec);

} // namespace drover::ctld
