// store_memory.hpp - the tables of a Store held in memory (Store::InMemory): a write transaction
// is the list of its changes, applied to the tables at commit, so readers see committed data only,
// as with LMDB.
#pragma once

#include <array>
#include <map>
#include <vector>

#include "state/store.hpp"

namespace drover::state {

struct Store::Memory {
    using Rows = std::map<std::vector<uint8_t>, std::vector<uint8_t>>;
    std::array<Rows, kTableCount> tables;

    void apply(const Change &c);
};

} // namespace drover::state
