// bind_list.hpp - what --cpu-bind and --mem-bind share: their comma-separated tokens (a list
// after map_*: or mask_*: stays one token) and their lists of ids or masks, each item repeated by
// "*N", in Slurm's syntax.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drover {

// "verbose,map_cpu:0,1" -> {"verbose", "map_cpu:0,1"}.
std::vector<std::string> bind_tokens(std::string_view text);

// The LIST of option's what (map_* when !mask: one id per item; mask_*: the bits of each hex
// mask), in order, repeats expanded. Throws ParseError in Slurm's words, naming option
// ("--cpu-bind") and what ("map_cpu").
std::vector<std::vector<uint32_t>> parse_bind_list(std::string_view list, bool mask,
                                                   const std::string &option,
                                                   const std::string &what);

} // namespace drover
