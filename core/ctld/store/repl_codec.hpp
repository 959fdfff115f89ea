// repl_codec.hpp - state changes to and from their wire form (ReplChange), checked on the way in.
#pragma once

#include <span>
#include <vector>

#include "proto/message_generated.h"
#include "state/store.hpp"

namespace drover::ctld {

flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<proto::ReplChange>>>
encode_changes(flatbuffers::FlatBufferBuilder &fbb, std::span<const state::Change> changes);

// Throws std::runtime_error naming the change for an unknown table or kind.
std::vector<state::Change>
decode_changes(const flatbuffers::Vector<flatbuffers::Offset<proto::ReplChange>> *changes);

// The encoded size of a change, near enough to cap a reply.
inline std::size_t change_size(const state::Change &c) {
    return c.key.size() + c.value.size() + 32;
}

} // namespace drover::ctld
