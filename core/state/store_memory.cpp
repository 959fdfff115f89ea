// store_memory.cpp - an in-memory store's tables.
#include "state/store_memory.hpp"

namespace drover::state {

void Store::Memory::apply(const Change &c) {
    Rows &rows = tables[std::size_t(c.table)];
    switch (c.kind) {
    case Change::Put:
        rows[c.key] = c.value;
        return;
    case Change::Del:
        rows.erase(c.key);
        return;
    case Change::Clear:
        rows.clear();
        return;
    }
}

} // namespace drover::state
