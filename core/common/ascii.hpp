// ascii.hpp - case folding for the ASCII names slurm.conf, sacctmgr and the protocol carry.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace drover {

inline std::string ascii_lower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

inline std::string ascii_upper(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

} // namespace drover
