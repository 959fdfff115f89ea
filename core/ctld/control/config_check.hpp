// config_check.hpp - what SIGHUP does to droverctld, in control or standing by: slurm.conf is
// read again and checked (changes take effect at restart); the answer goes to the log.
#pragma once

#include <string>

namespace drover::ctld {

void check_config_on_hup(const std::string &path);

} // namespace drover::ctld
