// env_options.hpp - input environment variables read as command-line options (SQUEUE_FORMAT as
// -o, SCANCEL_BATCH as -b, ...), the way Slurm's commands read them: an option given on the
// command line always wins over its variable.
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/options.hpp"

namespace drover::cli {

// The caller's environment as name/value pairs (alloc.cpp's process_env() builds it).
using EnvVars = std::vector<std::pair<std::string, std::string>>;

// How a variable's value becomes the option's.
enum class EnvValue {
    as_is,      // the value is the option's argument
    presence,   // set at all: the flag is given, whatever the value (SQUEUE_ALL)
    true_false, // "true"/"T" gives the flag, "false"/"F" does not (SCANCEL_BATCH), any case
    yes_no      // empty, "yes" or a number other than 0 gives the flag, anything else does not
                // (srun's SLURM_LABELIO and the like)
};

// One variable: the option it stands for and the options that, given on the command line or by
// a variable earlier in the table, make it ignored. The option itself always does.
struct EnvOption {
    const char *var;
    int id;
    EnvValue value = EnvValue::as_is;
    std::initializer_list<int> overridden_by = {};
};

// The options the variables of table give, in table order: those set in env whose option (or one
// of its overridden_by) is not in given. Each carries the variable's name as spelled. A
// true_false variable with another value throws drover::ParseError("Unrecognized VAR value: x").
std::vector<ParsedOpt> env_options(const EnvVars &env, std::span<const EnvOption> table,
                                   std::span<const ParsedOpt> given);

// The value of name in env (the last one set), or nullptr.
const std::string *env_value(const EnvVars &env, std::string_view name);

// env_options() before the command line's own options: what a parser walks in order.
std::vector<ParsedOpt> with_env_options(const EnvVars &env, std::span<const EnvOption> table,
                                        std::vector<ParsedOpt> given);

} // namespace drover::cli
