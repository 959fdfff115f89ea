// config_check.cpp - SIGHUP: slurm.conf read again and checked.
#include "ctld/control/config_check.hpp"

#include <spdlog/spdlog.h>

#include "common/config.hpp"

namespace drover::ctld {

void check_config_on_hup(const std::string &path) {
    try {
        load_config(path);
        spdlog::info("SIGHUP: {} re-read and valid; node and partition changes take effect "
                     "at restart",
                     path);
    } catch (const std::exception &e) {
        spdlog::error("SIGHUP: {}", e.what());
    }
}

} // namespace drover::ctld
