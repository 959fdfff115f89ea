// job_ids.cpp - comma-separated job id lists.
#include "cli/job_ids.hpp"

#include <string>

#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

std::vector<uint32_t> parse_job_id_list(std::string_view list, std::string_view error_prefix) {
    std::vector<uint32_t> ids;
    for (const auto &item : split(list, ',')) {
        auto id = parse_u32(trim(item));
        if (!id || *id == 0) throw ParseError(std::string(error_prefix) + item);
        ids.push_back(*id);
    }
    if (ids.empty()) throw ParseError(std::string(error_prefix) + std::string(list));
    return ids;
}

}  // namespace drover::cli
