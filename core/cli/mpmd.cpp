// mpmd.cpp - srun's components separated by ":" as one step.
#include "cli/mpmd.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace drover::cli {

namespace {

// A word of a --multi-prog line: quoted, '%' doubled, so that it reaches the task unchanged.
std::string multi_prog_word(const std::string &w) {
    std::string out = "'";
    for (char c : w) {
        if (c == '\'') {
            out += "'\"'\"'"; // close, a quoted ', reopen
            continue;
        }
        out += c == '%' ? "%%" : std::string(1, c);
    }
    return out + "'";
}

} // namespace

std::vector<std::span<const std::string>> mpmd_components(std::span<const std::string> args) {
    std::vector<std::span<const std::string>> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= args.size(); ++i)
        if (i == args.size() || args[i] == ":") {
            parts.push_back(args.subspan(start, i - start));
            start = i + 1;
        }
    return parts;
}

SrunRequest mpmd_request(const std::vector<std::span<const std::string>> &components,
                         std::vector<std::pair<std::string, std::string>> env) {
    std::erase_if(env, [](const auto &kv) { return kv.first == "SLURM_NTASKS"; });
    SrunRequest step;
    std::string text;
    uint32_t next = 0;
    for (std::size_t k = 0; k < components.size(); ++k) {
        SrunRequest part = parse_srun(components[k], env, "srun");
        if (part.argv.empty())
            throw ParseError("component " + std::to_string(k) + " of the step has no program");
        uint32_t tasks = std::max(1u, part.num_tasks);
        text += std::to_string(next) + "-" + std::to_string(next + tasks - 1);
        for (const auto &a : part.argv) text += " " + multi_prog_word(a);
        text += "\n";
        next += tasks;
        if (k == 0) step = std::move(part);
    }
    step.num_tasks = next;
    step.multi_prog = true;
    step.mpmd = text;
    return step;
}

} // namespace drover::cli
