// resv_spec.hpp - what one scontrol create/update reservation line asks for, read key by key
// from its Key=Value pairs (a key ending in '+' or '-' adds to or takes from a list: Users+=bob).
// Pure: the controller's Reservations checks it against nodes, jobs and other reservations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ctld/resv/reservation.hpp"

namespace drover::ctld {

struct ResvSpec {
    std::optional<std::string> name;
    std::optional<int64_t> start, end;
    std::optional<uint32_t> duration_min; // kInfinite: UNLIMITED
    std::optional<std::string> nodes;     // a host list, or "ALL"
    std::optional<uint32_t> node_cnt;
    std::optional<std::string> partition, features, licenses;
    std::optional<uint64_t> flags;
    uint64_t flags_add = 0, flags_remove = 0;
    std::optional<NameList> users, accounts;
    NameList users_add, users_remove, accounts_add, accounts_remove;
    std::optional<uint32_t> max_start_delay_s;
};

// Reads the pairs (keys case-insensitive; Slurm's names and aliases). now reads StartTime=now
// and relative times. Throws ParseError with what is wrong and which key: nothing is applied.
ResvSpec parse_resv_spec(const std::vector<std::pair<std::string, std::string>> &fields,
                         int64_t now);

} // namespace drover::ctld
