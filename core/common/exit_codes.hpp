// exit_codes.hpp - RequeueExit and RequeueExitHold: the batch script exit codes (0-255) that put
// a job back in the queue, run again or held, as slurm.conf lists them ("1-9,18").
#pragma once

#include <bitset>
#include <string_view>

namespace drover {

struct Config;

using ExitCodeSet = std::bitset<256>;

// "1-9,18" -> {1..9, 18}; "" -> {}. Throws ParseError for anything else, or a code over 255.
ExitCodeSet parse_exit_code_list(std::string_view text);

// The set a slurm.conf key names (lower case: "requeueexit", "requeueexithold"); empty when the
// key is not set or does not parse (the configuration's reader refuses it first).
ExitCodeSet configured_exit_codes(const Config &conf, const char *key);

} // namespace drover
