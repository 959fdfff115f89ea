// job_ids.hpp - the job id lists squeue -j and scontrol's JobId= and hold/release take.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace drover::cli {

// Parses "12,13, 14" into ids: each item a positive number, spaces around it allowed. Throws
// drover::ParseError("<error_prefix><item>") for a bad item, and with the whole list as the
// item when it holds no id at all.
std::vector<uint32_t> parse_job_id_list(std::string_view list, std::string_view error_prefix);

}  // namespace drover::cli
