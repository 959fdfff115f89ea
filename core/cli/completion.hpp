// completion.hpp - the bash completion script for every command (drover --completion), made from
// the option tables the commands parse with: options, and for the options and arguments that
// name them, job ids, partitions and node names asked of the cluster at completion time.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "cli/command_docs.hpp"

namespace drover::cli {

// What scontrol's "show" takes, as completion offers it (each one match_show_entity accepts).
std::span<const std::string_view> scontrol_show_entities();

// docs: the commands (section 1); scontrol_verbs: the words scontrol reads as commands.
std::string bash_completion(std::span<const CommandDoc> docs,
                            std::span<const std::string_view> scontrol_verbs);

} // namespace drover::cli
