// env_list.hpp - an environment as a list of "NAME=value" strings (what execve takes).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace drover {

// The value of NAME in env, or nullptr when env has no NAME.
inline const char *env_list_value(const std::vector<std::string> &env, std::string_view name) {
    for (const auto &e : env)
        if (e.size() > name.size() && e.compare(0, name.size(), name) == 0 && e[name.size()] == '=')
            return e.c_str() + name.size() + 1;
    return nullptr;
}

} // namespace drover
