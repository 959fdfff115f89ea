// multi_prog.hpp - srun --multi-prog's configuration file: a program for each task.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace drover {

// For each task 0..num_tasks-1, its argv. Lines are "TASKS PROGRAM ARGS...": TASKS a list of ids
// and ranges ("0,2-3") or "*" (every task not named before); "%t" in an argument becomes the
// task id, "%o" its offset within its line's tasks and "%%" a '%'; a word in single or double
// quotes is one argument (blanks and all); '#' starts a comment line. Throws
// ParseError naming the line for a malformed line or a task given twice, and when a task has no
// line.
std::vector<std::vector<std::string>> parse_multi_prog(const std::string &text, uint32_t num_tasks);

} // namespace drover
