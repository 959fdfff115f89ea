// iterate.hpp - squeue's and sinfo's --iterate: the date line over each report, and the loop
// that prints a report every so many seconds.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace drover::cli {

// "Tue Nov 14 22:13:20 2023\n" in local time: the line --long and --iterate reports start with.
std::string date_line(int64_t now);

// Runs show once when seconds is 0; otherwise runs it, writes a blank line and sleeps that many
// seconds, over and over, until show returns non-zero. Returns show's last status.
int show_every(int seconds, const std::function<int()> &show);

} // namespace drover::cli
