// fb_read.hpp - reading FlatBuffers fields that may be absent: a missing string or vector reads
// as an empty one.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <string>
#include <string_view>
#include <vector>

namespace drover::proto {

inline std::string str(const flatbuffers::String *s) {
    return s ? s->str() : std::string();
}

// The same, borrowed: valid as long as the message it points into.
inline std::string_view sv(const flatbuffers::String *s) {
    return s ? s->string_view() : std::string_view();
}

template <class T>
std::vector<T> vec(const flatbuffers::Vector<T> *v) {
    return v ? std::vector<T>(v->begin(), v->end()) : std::vector<T>();
}

} // namespace drover::proto
