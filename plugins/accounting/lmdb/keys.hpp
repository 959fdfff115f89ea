// keys.hpp - the store's keys: big-endian ids, so that LMDB's byte order is id order.
//
// Main database:   job id (4 bytes) -> the job's record; job id + step id (8) -> a step's.
// "earlier_runs":  job id + run (8) -> a requeued job's earlier run; + step id (12) -> its steps.
// A job's steps (and runs) follow the job in key order.
#pragma once

#include <lmdb.h>

#include <cstdint>
#include <initializer_list>

namespace drover::acct_lmdb {

template <int N>
struct KeyBytes {
    unsigned char bytes[4 * N];
    KeyBytes(std::initializer_list<uint32_t> ids) {
        int i = 0;
        for (uint32_t id : ids)
            for (int shift = 24; shift >= 0; shift -= 8)
                bytes[i++] = static_cast<unsigned char>(id >> shift);
    }
    MDB_val val() { return MDB_val{sizeof bytes, bytes}; }
};

using Key = KeyBytes<1>;        // {job}
using StepKey = KeyBytes<2>;    // {job, step}, or {job, run} in earlier_runs
using RunStepKey = KeyBytes<3>; // {job, run, step}

// The id at byte offset off of a key.
inline uint32_t key_id(const MDB_val &k, size_t off) {
    const auto *b = static_cast<const unsigned char *>(k.mv_data) + off;
    return uint32_t{b[0]} << 24 | uint32_t{b[1]} << 16 | uint32_t{b[2]} << 8 | b[3];
}

} // namespace drover::acct_lmdb
