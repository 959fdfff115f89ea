// squeue_steps.hpp - squeue -s/--steps: one line per running step, in squeue's -o letters for
// steps (%i step id, %j name, %P partition, %u user, %U uid, %M time used, %l limit, %S start,
// %N nodes, %A tasks, %b TRES per node, %%).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "proto/message_generated.h"

namespace drover::cli {

// "123.0", "123.batch", "123_4.2".
std::string step_id_text(const proto::StepInfo &s);

// Renders the steps (already filtered) with fmt; header unless noheader. Throws
// drover::ParseError("Invalid job format specification: ...") for an unknown letter.
std::string render_steps(std::string_view fmt, const std::vector<const proto::StepInfo *> &steps,
                         int64_t now, bool noheader);

} // namespace drover::cli
