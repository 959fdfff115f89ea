// man_page.hpp - a command's or daemon's man page (roff, man(7) macros), made from its option
// table and its --help text: drover --man NAME prints it; the build installs one per program.
#pragma once

#include <string>

#include "cli/command_docs.hpp"

namespace drover::cli {

// all: the programs its SEE ALSO names (command_docs(), whose table is in the drover binary).
std::string man_page(const CommandDoc &doc, std::span<const CommandDoc> all);

// Text for a roff line: backslashes, hyphens and a leading '.' or '\'' escaped.
std::string roff_escape(std::string_view text);

} // namespace drover::cli
