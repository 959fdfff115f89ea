// step_record.hpp - a running Step as the StepRecord FlatBuffer the state store keeps (table
// steps), and back: a restarted controller still lists the steps that were running, they still
// hold their CPUs, and their ends are still recorded when the nodes report them.
#pragma once

#include "ctld/steps/step_mgr.hpp"
#include "proto/message_generated.h"

namespace drover::ctld {

flatbuffers::Offset<proto::StepRecord> write_step_record(flatbuffers::FlatBufferBuilder &fbb,
                                                         const Step &st);
Step read_step_record(const proto::StepRecord &r);

} // namespace drover::ctld
