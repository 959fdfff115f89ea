// step_paths.cpp - pattern expansion for srun's per-task files.
#include "noded/step_paths.hpp"

#include <cctype>
#include <charconv>

namespace drover::noded {

std::string expand_step_path(const std::string &pattern, const PathContext &c, uint32_t task,
                             const std::string &work_dir) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%' || i + 1 >= pattern.size()) {
            out += pattern[i];
            continue;
        }
        std::size_t j = i + 1;
        int width = 0;
        while (j < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[j])))
            width = std::min(width * 10 + (pattern[j++] - '0'), 10);
        if (j >= pattern.size()) {
            out += pattern.substr(i);
            break;
        }
        auto num = [&](uint64_t v) {
            std::string s = std::to_string(v);
            if (s.size() < std::size_t(width)) s.insert(0, width - s.size(), '0');
            return s;
        };
        switch (pattern[j]) {
        case 'j':
            out += num(c.job_id);
            break;
        case 'J':
            out += num(c.job_id) + "." + std::to_string(c.step_id);
            break;
        case 's':
            out += num(c.step_id);
            break;
        case 't':
            out += num(task);
            break;
        case 'n':
            out += num(c.node_index);
            break;
        case 'N':
            out += c.node;
            break;
        case 'u':
            out += c.user;
            break;
        case 'x':
            out += c.job_name;
            break;
        case '%':
            out += '%';
            break;
        default:
            out += pattern.substr(i, j - i + 1);
            break;
        }
        i = j;
    }
    if (!out.empty() && out[0] != '/') out = work_dir + "/" + out;
    return out;
}

StdinTarget stdin_target(const std::string &spec) {
    StdinTarget t;
    if (spec.empty()) return t;
    if (spec == "all")
        t.all = true;
    else if (spec == "none")
        t.none = true;
    else {
        uint32_t v = 0;
        auto [end, ec] = std::from_chars(spec.data(), spec.data() + spec.size(), v);
        if (ec == std::errc() && end == spec.data() + spec.size())
            t.task = v;
        else
            t.file = true;
    }
    return t;
}

} // namespace drover::noded
