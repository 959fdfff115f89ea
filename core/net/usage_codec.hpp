// usage_codec.hpp - StepUsageSummary to and from the StepUsage table of the wire.
#pragma once

#include "common/usage.hpp"
#include "proto/message_generated.h"

namespace drover::net {

flatbuffers::Offset<proto::StepUsage> usage_to_proto(flatbuffers::FlatBufferBuilder &fbb,
                                                     const StepUsageSummary &u);
StepUsageSummary usage_from_proto(const proto::StepUsage &p);

} // namespace drover::net
