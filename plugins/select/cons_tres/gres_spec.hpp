// gres_spec.hpp - name[:type][:count] lists as nodes report them ("gpu:4,gpu:a100:2,nic:1",
// with an optional "(S:0-1)" after a count) and as jobs ask for them ("gpu:2,gpu:a100:1").
//
// The plugin links nothing from the core, so this is its own small reader of the syntax that
// core/common/gres.hpp reads for the daemons.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cons_tres {

struct GresItem {
    std::string name;
    std::string type; // empty = untyped
    uint64_t count = 1;
};

// Parses a comma-separated list; "" and "none" are empty. A count may end in K, M or G (powers
// of 1024). Throws std::invalid_argument naming the bad item.
std::vector<GresItem> parse_gres_list(std::string_view spec);

} // namespace cons_tres
