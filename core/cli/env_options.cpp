// env_options.cpp - input environment variables as options, overridden by the command line.
#include "cli/env_options.hpp"

#include <algorithm>

#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

bool has_id(std::span<const ParsedOpt> opts, int id) {
    return std::any_of(opts.begin(), opts.end(), [id](const ParsedOpt &o) { return o.id == id; });
}

// Slurm's reading of SCANCEL_BATCH and the like: true/T or false/F, any case.
bool true_or_false(const EnvOption &e, const std::string &v) {
    if (iequals(v, "true") || iequals(v, "t")) return true;
    if (iequals(v, "false") || iequals(v, "f")) return false;
    throw ParseError(std::string("Unrecognized ") + e.var + " value: " + v);
}

// Slurm's reading of srun's flag variables: set with no value, "yes" or a non-zero number.
bool yes_or_number(const std::string &v) {
    if (v.empty() || iequals(v, "yes")) return true;
    auto n = parse_u32(v);
    return n && *n != 0;
}

} // namespace

const std::string *env_value(const EnvVars &env, std::string_view name) {
    const std::string *found = nullptr;
    for (const auto &[k, v] : env)
        if (k == name) found = &v;
    return found;
}

std::vector<ParsedOpt> env_options(const EnvVars &env, std::span<const EnvOption> table,
                                   std::span<const ParsedOpt> given) {
    std::vector<ParsedOpt> out;
    // Whether the command line, or a variable taken before this one, gave the option.
    auto taken = [&](int id) { return has_id(given, id) || has_id(out, id); };
    for (const auto &e : table) {
        const std::string *v = env_value(env, e.var);
        if (!v || taken(e.id)) continue;
        if (std::any_of(e.overridden_by.begin(), e.overridden_by.end(), taken)) continue;
        ParsedOpt o{e.id, *v, e.var};
        if (e.value != EnvValue::as_is) {
            if (e.value == EnvValue::true_false && !true_or_false(e, *v)) continue;
            if (e.value == EnvValue::yes_no && !yes_or_number(*v)) continue;
            o.value.reset();
        }
        out.push_back(std::move(o));
    }
    return out;
}

std::vector<ParsedOpt> with_env_options(const EnvVars &env, std::span<const EnvOption> table,
                                        std::vector<ParsedOpt> given) {
    std::vector<ParsedOpt> all = env_options(env, table, given);
    all.insert(all.end(), std::make_move_iterator(given.begin()),
               std::make_move_iterator(given.end()));
    return all;
}

} // namespace drover::cli
