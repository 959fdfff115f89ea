// exit_codes.cpp - exit code lists of slurm.conf.
#include "common/exit_codes.hpp"

#include "common/config.hpp"
#include "common/error.hpp"
#include "common/gres.hpp"

namespace drover {

ExitCodeSet parse_exit_code_list(std::string_view text) {
    ExitCodeSet out;
    for (uint32_t code : parse_index_list(text)) {
        if (code >= out.size())
            throw ParseError("exit code " + std::to_string(code) + " is over 255");
        out.set(code);
    }
    return out;
}

ExitCodeSet configured_exit_codes(const Config &conf, const char *key) {
    auto it = conf.raw.find(key);
    if (it == conf.raw.end()) return {};
    try {
        return parse_exit_code_list(it->second);
    } catch (const ParseError &) {
        return {};
    }
}

} // namespace drover
