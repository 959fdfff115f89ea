// partition_list.hpp - a job's partitions: one name, or several ("a,b") while a job submitted
// with -p a,b waits; it starts in one of them, which is then its partition (as in Slurm, squeue
// shows the list while the job is pending and the partition it runs in afterwards).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "common/config_parse.hpp"

namespace drover::ctld {

// The names of a partition list, in its order, empty items and repeats left out.
inline std::vector<std::string> partition_names(std::string_view list) {
    std::vector<std::string> out;
    for (std::string &item : detail::split_list(list))
        if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(std::move(item));
    return out;
}

inline bool is_partition_list(std::string_view list) {
    return list.find(',') != std::string_view::npos;
}

// Whether the list names partition name.
inline bool names_partition(std::string_view list, std::string_view name) {
    for (const auto &n : partition_names(list))
        if (n == name) return true;
    return false;
}

} // namespace drover::ctld
