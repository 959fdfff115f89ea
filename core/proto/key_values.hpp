// key_values.hpp - Key=Value pairs (a config report, an update request's fields, an environment)
// as the FlatBuffers vector of KeyValue the messages carry.
#pragma once

#include "proto/message_generated.h"

namespace drover::proto {

// pairs: any range of (key, value) whose members convert to const char * through c_str().
template <class Pairs>
flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<KeyValue>>>
key_values(flatbuffers::FlatBufferBuilder &fbb, const Pairs &pairs) {
    std::vector<flatbuffers::Offset<KeyValue>> out;
    for (const auto &[key, value] : pairs)
        out.push_back(CreateKeyValueDirect(fbb, key.c_str(), value.c_str()));
    return fbb.CreateVector(out);
}

} // namespace drover::proto
